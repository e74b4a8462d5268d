/* global process */
// Loaded into the server by bench/profile.ts (`node --import ./bench/profile-hook.mjs`): SIGUSR2 starts
// the profiler, the next SIGUSR2 stops it and writes the profile to $PROFILE_OUT, so the profile
// covers exactly the measured requests (not start-up, migrations or seeding). PROFILE_KIND=heap
// samples allocations instead of CPU: every 256 bytes allocated, those collected since included,
// so the profile holds what the requests allocated, not what they kept.
import fs from 'node:fs';
import inspector from 'node:inspector';

const session = new inspector.Session();
session.connect();
const heap = process.env.PROFILE_KIND === 'heap';
const start = (done) =>
  heap
    ? session.post('HeapProfiler.enable', () =>
        session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }, done),
      )
    : session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start', done)));
let running = false;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    start(() => fs.writeFileSync(`${process.env.PROFILE_OUT}.started`, ''));
  } else {
    session.post(heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop', (err, result) => {
      running = false;
      fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(err ? {} : result.profile));
    });
  }
});
