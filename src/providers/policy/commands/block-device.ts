// What under /dev a command may write every day: the null and random
// streams, terminals, its own descriptors, shared memory.
const EVERYDAY = /^(null|zero|full|random|urandom|stdin|stdout|stderr|console|ptmx|tty\w*|(pts|fd|shm)(\/.*)?)$/;

/**
 * Whether a path may name a disk, a partition or memory (a write to it
 * destroys what it holds): anything under /dev but the everyday streams
 * and terminals, however it is spelled (`/dev//sda`, `/dev/fd/../sda`,
 * `../../dev/sda`, `/proc/self/root/dev/sda`).
 */
export function isBlockDevice(path: string): boolean {
  const segments: string[] = [];
  let escaped = false;
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.pop() === undefined) escaped = true;
  }
  // /proc/<pid>/root is the root directory again.
  while (segments[0] === 'proc' && segments[2] === 'root') segments.splice(0, 3);
  const rooted = path.startsWith('/') || escaped;
  return rooted && segments[0] === 'dev' && segments.length > 1 && !EVERYDAY.test(segments.slice(1).join('/'));
}
