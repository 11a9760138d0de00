// After a policy is tightened, flows the old rules admitted would survive as "established": the
// connection tracking entries of the network's subnet are deleted so every flow is judged again.
import { type FirewallRunOptions, runFirewallTool, toolFailed } from './nft-exec';
import { cidr } from './nft-values';

/** Deletes the tracked flows whose source is in `subnet` (IPv4 or IPv6); returns how many were deleted. */
export async function flushSubnet(subnet: string, opts: FirewallRunOptions = {}): Promise<number> {
  const family = typeof subnet === 'string' && subnet.includes(':') ? 6 : 4;
  const normal = cidr(subnet, family, 'subnet');
  const result = await runFirewallTool('conntrack', ['-D', '-f', family === 4 ? 'ipv4' : 'ipv6', '-s', normal], opts);
  const counted = /: (\d{1,12}) flow entries have been deleted/.exec(result.stderr);
  // conntrack ends with status 1 when no entry matched; that is success here.
  if (result.code === 0 || (result.code === 1 && counted)) return counted ? Number(counted[1]) : 0;
  throw toolFailed('conntrack', `flush the flows of ${normal}`, result);
}
