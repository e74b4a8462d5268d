/**
 * A short mono 16-bit PCM WAV of soft tones (the demo seed's relaxation tracks), made in code so the
 * repository ships no binary and the seed needs no network.
 */
export function toneWav(seconds: number, notes: number[], rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  const per = Math.max(1, Math.floor(samples / notes.length));
  for (let i = 0; i < samples; i++) {
    const f = notes[Math.min(notes.length - 1, Math.floor(i / per))]!;
    const fade = Math.min(1, (i % per) / 400, (per - (i % per)) / 400);
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * f * i) / rate) * 6000 * fade), i * 2);
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}
