/* global process */
// Loaded into the server by bench/profile.ts (`node --import ./bench/profile-hook.mjs`): SIGUSR2 starts
// the CPU profiler, the next SIGUSR2 stops it and writes the profile to $PROFILE_OUT, so the profile
// covers exactly the measured requests (not start-up, migrations or seeding).
import fs from 'node:fs';
import inspector from 'node:inspector';

const session = new inspector.Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 100 }, () =>
        session.post('Profiler.start', () => fs.writeFileSync(`${process.env.PROFILE_OUT}.started`, '')),
      ),
    );
  } else {
    session.post('Profiler.stop', (err, result) => {
      running = false;
      fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(err ? {} : result.profile));
    });
  }
});
