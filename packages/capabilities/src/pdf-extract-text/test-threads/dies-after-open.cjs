// A PDF thread that opens any document as 3 pages, then throws on its own between two requests
// (pdf-reader.test.ts): what an async fault inside pdf.js would look like to the reader.
const { parentPort } = require('node:worker_threads');

parentPort.on('message', (message) => {
  if (message.type === 'open') {
    parentPort.postMessage({ type: 'opened', pages: 3 });
    setTimeout(() => {
      throw new Error('pdf thread fault between requests');
    }, 20);
  }
});
