import { toast, type Id } from 'react-toastify/unstyled';

/** The toaster's kinds (spec §2): info, warning, error, success and chargement (loading). Durations in ms. */
export const notify = {
  info: (message: string, duration = 3000) => toast.info(message, { autoClose: duration }),
  warning: (message: string, duration = 3000) => toast.warning(message, { autoClose: duration }),
  error: (message: string, duration = 3000) => toast.error(message, { autoClose: duration }),
  success: (message: string, duration = 3000) => toast.success(message, { autoClose: duration }),
  /** 'chargement': stays until `settle` replaces it. */
  chargement: (message: string): Id => toast.loading(message),
  settle: (id: Id, kind: 'success' | 'error' | 'info' | 'warning', message: string, duration = 3000) =>
    toast.update(id, { render: message, type: kind, isLoading: false, autoClose: duration }),
};
