import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { Readable, PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy } from '@fastify/busboy';
const file = '/tmp/ub/big.bin';
const boundary = '----bench1234567890';
function body() {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return Readable.from((async function* () { yield head; for await (const c of createReadStream(file, { highWaterMark: 64 * 1024 })) yield c; yield tail; })());
}
async function viaBusboy(src) {
  const parser = Busboy({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  let w;
  parser.on('file', (n, s) => { w = pipeline(s, createWriteStream('/tmp/ub/out.bin')); });
  await pipeline(src, parser); await w;
}
const mode = process.argv[2];
const t = performance.now();
if (mode === 'plain') await pipeline(body(), createWriteStream('/tmp/ub/out.bin'));
if (mode === 'busboy') await viaBusboy(body());
if (mode === 'web') await viaBusboy(Readable.fromWeb(Readable.toWeb(body())));
const s = (performance.now() - t) / 1000;
console.log(mode, (statSync(file).size / 1e6 / s).toFixed(0), 'MB/s');
