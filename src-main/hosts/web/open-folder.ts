import { spawn } from 'node:child_process';

/**
 * Opens a folder in the system's file manager (the web host runs on the user's own machine): '' once the opener
 * started, else why not (none installed). The page names no path: the host passes its own log folder only.
 */
export function openFolderWithSystem(folder: string): Promise<string> {
  const [command, args] =
    process.platform === 'win32' ? ['explorer.exe', [folder]] : process.platform === 'darwin' ? ['open', [folder]] : ['xdg-open', [folder]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => resolve(error.message || 'no opener'));
    child.once('spawn', () => {
      child.unref();
      resolve('');
    });
  });
}
