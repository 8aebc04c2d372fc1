// Electron's utilityProcess gives the embedded server process.parentPort: its messages to the main process, and the
// main process's to it (as MessageEvents). Under plain Node (forked with an IPC channel, --import this file) both
// go over the IPC channel.
process.parentPort = {
  postMessage: (message) => process.send?.(message),
  on: (event, listener) => {
    if (event === 'message') process.on('message', (data) => listener({ data }));
  },
};
