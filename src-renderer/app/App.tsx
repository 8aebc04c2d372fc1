import { Provider } from 'jotai';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { ToastContainer } from 'react-toastify/unstyled';
import LoginPage from '../features/auth/LoginPage';
import PasswordConfirmPage from '../features/auth/PasswordConfirmPage';
import ForbiddenPage from '../features/forbidden/ForbiddenPage';
import HomePage from '../features/home/HomePage';
import { Layout } from './Layout';
import { ModalHost } from './modal';
import { RequireAuth } from './RequireAuth';
import { AboutPage, AdminPage } from './screens';
import { SessionEvents } from './session-events';

export function App() {
  return (
    <Provider>
      <BrowserRouter>
        <SessionEvents />
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/password/confirm" element={<PasswordConfirmPage />} />
          <Route
            element={
              <RequireAuth>
                <Layout />
              </RequireAuth>
            }
          >
            <Route index element={<HomePage />} />
            <Route path="/admin" element={<AdminPage />} />
            <Route path="/about" element={<AboutPage />} />
            <Route path="/403" element={<ForbiddenPage />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Route>
        </Routes>
        <ModalHost />
        <ToastContainer position="bottom-right" newestOnTop closeOnClick pauseOnFocusLoss={false} />
      </BrowserRouter>
    </Provider>
  );
}
