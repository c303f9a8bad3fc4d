// Linux disks and partitions (SCSI/SATA, IDE, virtio, Xen, NVMe, SD/eMMC,
// RAID, device-mapper, loop, network block devices, the /dev/disk links)
// and macOS disks: writing one destroys whatever file system it holds.
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd|mapper\/|disk|rdisk)/;

/** Whether a path names a disk or partition (a write to it is a disk-level write). */
export function isBlockDevice(path: string): boolean {
  return BLOCK_DEVICE.test(path);
}
