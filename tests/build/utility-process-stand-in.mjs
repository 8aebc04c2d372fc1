// Electron's utilityProcess gives the embedded server process.parentPort, through which it tells the main process
// its address. Under plain Node (forked with an IPC channel, --import this file) the same messages go to the
// parent over process.send.
process.parentPort = {
  postMessage: (message) => process.send?.(message),
  on: () => undefined,
};
