// Child process of replay-interrupt.test.ts: an endless classic pcap on standard output, the records
// of the capture named as the first argument over and over, each round stamped a minute after the last
// (so time goes forward and protection sees new traffic), written as fast as the reader takes them.
// With a second argument, only that many rounds are written, and standard output is then held open
// without a byte more (a live capture gone quiet).
import { readFileSync } from 'node:fs';

const file = readFileSync(process.argv[2]);
const nanosecond = file.readUInt32LE(0) === 0xa1b23c4d;
const records = [];
for (let at = 24; at + 16 <= file.length; ) {
  const capLen = file.readUInt32LE(at + 8);
  records.push(file.subarray(at, at + 16 + capLen));
  at += 16 + capLen;
}
const ROUND_SECONDS = 60;
const rounds = process.argv[3] === undefined ? Infinity : Number(process.argv[3]);

process.stdout.on('error', () => process.exit(0)); // the replay went away
process.stdout.write(file.subarray(0, 24));
for (let round = 0; round < rounds; round++) {
  const batch = Buffer.concat(records.map((r) => Buffer.from(r)));
  for (let at = 0; at < batch.length; ) {
    batch.writeUInt32LE(batch.readUInt32LE(at) + round * ROUND_SECONDS, at);
    at += 16 + batch.readUInt32LE(at + 8);
  }
  if (!process.stdout.write(batch)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}
setInterval(() => undefined, 1 << 30);
