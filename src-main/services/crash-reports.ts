/**
 * Electron's crashReporter options from the settings (Electron docs, crashReporter.start): minidumps of crashed
 * processes (main, renderers, the embedded API's utility process) are always written in the user data folder's
 * crash dumps (app.getPath('crashDumps')); they are uploaded only where `crashReportUrl` names an https server
 * (Crashpad's multipart POST, e.g. a Sentry or Backtrace minidump endpoint).
 */
export interface CrashReporterOptions {
  productName: string;
  submitURL?: string;
  uploadToServer: boolean;
  compress: boolean;
  /** Nothing of the session or the page: only the version, to sort the reports. */
  globalExtra: Record<string, string>;
}

export function crashReporterOptions(input: { crashReportUrl: string; productName: string; version: string }): CrashReporterOptions {
  const url = URL.parse(input.crashReportUrl.trim());
  const upload = Boolean(url && url.protocol === 'https:' && !url.username && !url.password);
  return {
    productName: input.productName,
    ...(upload ? { submitURL: url!.href } : {}),
    uploadToServer: upload,
    compress: true,
    globalExtra: { version: input.version },
  };
}
