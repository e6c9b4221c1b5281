/**
 * Test helpers of `@switchyard/relay-kit`, for this package's tests and the server's: fixture
 * loaders (`.chunks.txt` → SSE body), byte splitters to simulate arbitrary network chunking, and
 * stream helpers. Imported as `@switchyard/relay-kit/testing`; never from production code.
 */

export { shareOneFastShape } from './hidden-class.js';
export {
  chunksToSse,
  collectStream,
  collectText,
  loadChunksFixture,
  loadJsonFixture,
  splitAt,
  splitEvery,
  streamOf,
  toBytes,
} from './sse-fixtures.js';
