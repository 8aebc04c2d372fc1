import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The unstyled build with its style sheet as a file: the default build injects a <style> element, which the
// CSP refuses.
import 'react-toastify/dist/ReactToastify.css';
import './styles.css';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
