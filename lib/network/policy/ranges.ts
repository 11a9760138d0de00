// Address ranges no policy can open, and the private ranges denied unless an allow entry names them.

export interface NamedRange {
  cidr: string;
  why: string;
}

export const ALWAYS_BLOCKED_V4: readonly NamedRange[] = [
  { cidr: '0.0.0.0/8', why: '"this network"' },
  { cidr: '127.0.0.0/8', why: 'loopback' },
  { cidr: '169.254.0.0/16', why: 'link-local, including the cloud metadata address 169.254.169.254' },
  { cidr: '100.100.100.200/32', why: 'Alibaba Cloud metadata' },
  { cidr: '168.63.129.16/32', why: 'Azure WireServer' },
  { cidr: '224.0.0.0/4', why: 'multicast' },
  { cidr: '240.0.0.0/4', why: 'reserved, including broadcast' },
];

export const ALWAYS_BLOCKED_V6: readonly NamedRange[] = [
  { cidr: '::/128', why: 'unspecified' },
  { cidr: '::1/128', why: 'loopback' },
  { cidr: '::ffff:0:0/96', why: 'IPv4-mapped (would reach IPv4 ranges around the rules)' },
  { cidr: '64:ff9b::/96', why: 'NAT64 (would reach IPv4 metadata on NAT64 hosts)' },
  { cidr: 'fe80::/10', why: 'link-local' },
  { cidr: 'fd00:ec2::254/128', why: 'AWS metadata (IPv6)' },
  { cidr: 'ff00::/8', why: 'multicast' },
];

/** Denied by default; an allowOut entry that names (covers) the address opens it. */
export const PRIVATE_V4: readonly NamedRange[] = [
  { cidr: '10.0.0.0/8', why: 'private (RFC 1918)' },
  { cidr: '172.16.0.0/12', why: 'private (RFC 1918)' },
  { cidr: '192.168.0.0/16', why: 'private (RFC 1918)' },
  { cidr: '100.64.0.0/10', why: 'carrier-grade NAT' },
];

export const PRIVATE_V6: readonly NamedRange[] = [{ cidr: 'fc00::/7', why: 'unique local' }];

/** The host itself is blocked too (the INPUT hook) except the DNS forwarder and the egress proxy. */
export const HOST_NOTE = 'The host itself, except the DNS forwarder and the egress proxy on the network gateway';
