/**
 * `npm run doctor`: checks the configuration in the environment before `npm run serve` (ops/doctor.ts).
 * One line per check; exits 1 when any fails.
 */
import { doctor, report } from '../ops/doctor.js';

const checks = await doctor(process.env);
console.log(report(checks));
const failed = checks.filter((c) => !c.ok).length;
console.log(failed ? `\n${failed} check${failed > 1 ? 's' : ''} failed` : '\nall checks passed');
process.exitCode = failed ? 1 : 0;
