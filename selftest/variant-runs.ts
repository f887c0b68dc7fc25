/**
 * The fault run and the latitude run of `npm run selftest`, side by side in one set of slots (one batch run
 * per core and one more, FAULT_PARALLEL to change it): each batch run is the same as when either runs
 * alone (selftest/fault-run.ts, selftest/latitude-run.ts), every variant still alone against its own
 * sandbox. Alone, each left a core idle at its end and while its longest batch ran; together, the longest
 * jobs go first (the degenerate batches, then the latitude run's, whose business batches are the longest
 * of all) and the fault run's batches fill the slots left.
 * The fault run's lines are printed first, the latitude run's after them; exits non-zero if either fails.
 */
import { faultRunSettings } from '../harness/runner/settings.ts';
import { faultRun } from './fault-run.ts';
import { latitudeRun } from './latitude-run.ts';
import { batchesAtOnce, OrderedLog, Slots } from './variants/pool.ts';

const started = Date.now();
const slots = new Slots(batchesAtOnce(faultRunSettings().parallel));
const out = new OrderedLog();
const [faults, latitudes] = [out.section(), out.section()];
const nested = (part: typeof faults) => new OrderedLog((line) => part.log(line));
const [faultCode, latitudeCode] = await Promise.all([
  faultRun(slots.ranked(1), nested(faults)).finally(faults.end),
  latitudeRun(slots.ranked(0), nested(latitudes)).finally(latitudes.end),
]);
console.log(`fault and latitude runs: ${((Date.now() - started) / 1000).toFixed(1)} s wall`);
process.exitCode = faultCode || latitudeCode;
