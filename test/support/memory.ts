/**
 * What a test's own process holds after a full collection: the heap in use plus external memory
 * (Buffers), for tests that check a flood was let go. Node runs tests without --expose-gc, so the
 * collector is exposed here at load.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export function heapAndExternal(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}
