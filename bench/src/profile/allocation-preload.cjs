// Loaded with --require into the process under test by profile-switchyard.ts when
// PROFILE_ALLOCATIONS is set: SIGUSR2 starts V8's sampling heap profiler, the next SIGUSR2 stops it
// and writes the profile to SWITCHYARD_ALLOCATION_PROFILE. Mode `all` keeps every sampled
// allocation (what the process allocates); `survivors` drops those freed by a scavenge, so what is
// left is what lived through one (what scavenges copy and promote).
const inspector = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');

const output = process.env.SWITCHYARD_ALLOCATION_PROFILE;
const keepScavenged = process.env.SWITCHYARD_ALLOCATION_MODE === 'all';
const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: keepScavenged,
    });
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    // Written aside and renamed, so the reader never sees half a file.
    writeFileSync(
      `${output}.part`,
      error ? JSON.stringify({ error: String(error) }) : JSON.stringify(result.profile),
    );
    renameSync(`${output}.part`, output);
  });
});
