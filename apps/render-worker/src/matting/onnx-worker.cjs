// One ONNX Runtime session in a worker thread. onnxruntime-node runs a model synchronously on the
// thread that calls it, so the render worker keeps its sessions here: its own thread is then free to
// finish one frame while the model reads the next. Plain CommonJS: it runs before any TypeScript hook.
// Messages: { id, kind: 'open', path, options } and { id, kind: 'run', input, dims }; each is answered
// with { id, ok: true, mask? } or { id, ok: false, error }.
const { parentPort } = require('node:worker_threads');
const ort = require('onnxruntime-node');

let session;

parentPort.on('message', async (message) => {
  try {
    if (message.kind === 'open') {
      session = await ort.InferenceSession.create(message.path, message.options);
      parentPort.postMessage({ id: message.id, ok: true });
      return;
    }
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', message.input, message.dims) };
    const outputs = await session.run(feeds);
    parentPort.postMessage({ id: message.id, ok: true, mask: outputs[session.outputNames[0]].data });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
