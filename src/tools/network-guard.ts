import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, fetch as UndiciFetch } from 'undici';
import { CohortError } from '../errors/index.js';
import { nodeDns, nodeDnsPromises, nodeNet } from '../builtins/index.js';

/** Resolves a host name to every address it has (injected so tests need no DNS). */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver: every A and AAAA address of `host`. */
export const systemLookup: HostLookup = async (host) =>
  (await nodeDnsPromises().lookup(host, { all: true, verbatim: true })).map(
    (entry) => entry.address,
  );

/**
 * IANA's IPv4 special-purpose registry (RFC 6890 and updates) plus multicast: every block that is
 * not an ordinary public unicast address. [base, prefix length].
 */
const IPV4_SPECIAL: Array<[number, number]> = [
  [0x00000000, 8], // 0/8 "this network", reaches local services
  [0x0a000000, 8], // 10/8 private
  [0x64400000, 10], // 100.64/10 shared address space (carrier-grade NAT)
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local, cloud metadata
  [0xac100000, 12], // 172.16/12 private
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2/24 documentation
  [0xc01fc400, 24], // 192.31.196/24 AS112
  [0xc034c100, 24], // 192.52.193/24 AMT
  [0xc0586300, 24], // 192.88.99/24 6to4 relay anycast
  [0xc0a80000, 16], // 192.168/16 private
  [0xc0af3000, 24], // 192.175.48/24 direct delegation AS112
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 documentation
  [0xcb007100, 24], // 203.0.113/24 documentation
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, 255.255.255.255 broadcast included
];

const inBlock = (value: number, [base, bits]: [number, number]) =>
  bits === 0 || value >>> (32 - bits) === base >>> (32 - bits);

/**
 * An IPv4 address in any spelling the resolver or a URL accepts (dotted decimal, octal `0177`,
 * hex `0x7f`, and the 1- to 3-part forms such as `2130706433` or `127.1`) as a 32-bit number;
 * undefined when the text is not one.
 */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4 || parts.some((part) => part === '')) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) value = Number(part);
    else return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((value) => value > 255)) return undefined;
  if (last >= 2 ** (8 * (4 - numbers.length))) return undefined;
  return (
    (numbers.reduce((value, part, index) => value + part * 2 ** (24 - 8 * index), 0) + last) >>> 0
  );
}

function ipv4Special(value: number): boolean {
  return IPV4_SPECIAL.some((block) => inBlock(value, block));
}

/** Expands an IPv6 address to its eight 16-bit groups; undefined when it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = parseIpv4(tail[1]);
    if (v4 === undefined) return undefined;
    text =
      text.slice(0, -tail[1].length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = text.includes('::') ? 8 - left.length - right.length : 0;
  const groups = [...left, ...Array<string>(Math.max(0, fill)).fill('0'), ...right].map((group) =>
    /^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN,
  );
  return groups.length === 8 && groups.every(Number.isFinite) ? groups : undefined;
}

const v4From = (high: number, low: number) => ((high << 16) | low) >>> 0;
const zeros = (groups: number[], from: number, to: number) =>
  groups.slice(from, to).every((group) => group === 0);

/** True for an IPv6 address in IANA's special-purpose registry, or one that embeds a special IPv4. */
function ipv6Special(groups: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, , g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped): the embedded
  // IPv4 address decides, and ::, ::1 are refused outright.
  if (zeros(groups, 0, 5) && (g5 === 0 || g5 === 0xffff)) {
    if (g5 === 0 && g6 === 0 && g7 <= 1) return true;
    return ipv4Special(v4From(g6, g7)) || g5 === 0; // IPv4-compatible is deprecated: never public
  }
  if (zeros(groups, 0, 4) && g4 === 0xffff && g5 === 0) return true; // ::ffff:0:a.b.c.d (SIIT)
  if (g0 === 0x0064 && g1 === 0xff9b) {
    // 64:ff9b::/96 NAT64 embeds an IPv4 address; 64:ff9b:1::/48 is for local use only.
    if (g2 === 1) return true;
    return zeros(groups, 2, 6) ? ipv4Special(v4From(g6, g7)) : true;
  }
  if (g0 === 0x0100 && zeros(groups, 1, 4)) return true; // 100::/64 discard
  if (g0 === 0x2001 && g1 < 0x0200) return true; // 2001::/23 IETF protocol assignments (Teredo…)
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // 2001:db8::/32 documentation
  if (g0 === 0x2002) return ipv4Special(v4From(g1, g2)); // 2002::/16 6to4 embeds an IPv4 address
  if ((g0 & 0xfff0) === 0x3ff0) return true; // 3fff::/20 documentation
  if (g0 === 0x5f00) return true; // 5f00::/16 segment routing
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/**
 * True for every address that is not an ordinary public unicast one: IANA's IPv4 and IPv6
 * special-purpose blocks (loopback, private, shared 100.64/10, link-local, benchmarking
 * 198.18/15, documentation, multicast, reserved and broadcast, unique-local, discard, Teredo…),
 * and IPv6 forms that carry a special IPv4 address (IPv4-mapped `::ffff:0:0/96`, IPv4-compatible,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`). IPv4 may be spelt in decimal, octal or hex. Text that
 * is no address at all counts as private: refuse rather than guess.
 *
 * @example
 * isPrivateAddress('10.1.2.3'); // true
 * isPrivateAddress('0x7f.1'); // true (127.0.0.1)
 * isPrivateAddress('64:ff9b::a00:1'); // true (NAT64 of 10.0.0.1)
 * isPrivateAddress('93.184.216.34'); // false
 */
export function isPrivateAddress(ip: string): boolean {
  const text = ip.trim().replace(/^\[|\]$/g, '');
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return ipv4Special(v4);
  if (nodeNet().isIP(text.split('%')[0] ?? '') !== 6) return true;
  const groups = ipv6Groups(text);
  return groups ? ipv6Special(groups) : true;
}

/**
 * Refuses URLs that are not http(s) or whose host resolves to any private or loopback address,
 * unless `allowPrivate` (config `tools.allowPrivateNetwork`). Every resolved address is checked,
 * so a name with one public and one private address is refused.
 *
 * @example
 * await assertPublicUrl(new URL('http://169.254.169.254/latest'), { allowPrivate: false }); // throws
 */
export async function assertPublicUrl(
  url: URL,
  options: { allowPrivate: boolean; lookup?: HostLookup },
): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CohortError(
      'forbidden',
      `Only http and https URLs can be fetched (got ${url.protocol}).`,
      {
        field: 'url',
      },
    );
  }
  if (options.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (nodeNet().isIP(host) || parseIpv4(host) !== undefined) addresses = [host];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (cause) {
      throw new CohortError(
        'not_found',
        `Cannot resolve host "${host}": ${(cause as Error).message}`,
        {
          field: 'url',
          cause,
        },
      );
    }
  }
  const refusal = privateAddressRefusal(`fetch ${url.origin}`, addresses);
  if (refusal) throw refusal;
}

/** The refusal for a target that resolves to no address or to any private one; else undefined. */
function privateAddressRefusal(
  action: string,
  addresses: string[],
  setting = 'tools.allowPrivateNetwork',
): CohortError | undefined {
  const blocked = addresses.filter(isPrivateAddress);
  if (addresses.length > 0 && blocked.length === 0) return undefined;
  return new CohortError(
    'forbidden',
    `Refusing to ${action}: it resolves to a private or loopback address (${blocked.join(', ') || 'none'}). Set ${setting} to allow it.`,
    { field: 'url' },
  );
}

/**
 * A resolver for `net.connect`/`http.request` that refuses private and loopback addresses at
 * connect time. {@link assertPublicUrl} checks a name before the request, but a name can resolve
 * again to another address when the socket opens (DNS rebinding); this check runs on the answer
 * the socket really uses. `resolve` replaces the system resolver (tests); `setting` is the option
 * the refusal names as the way to allow private addresses.
 *
 * @example
 * net.connect({ host: 'example.org', port: 443, lookup: createGuardedLookup() });
 */
export function createGuardedLookup(
  options: { resolve?: HostLookup; setting?: string } = {},
): LookupFunction {
  const { resolve, setting } = options;
  const answer = (
    hostname: string,
    wanted: { all?: boolean },
    callback: Parameters<LookupFunction>[2],
    error: Error | null,
    addresses: LookupAddress[],
  ) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const refusal = privateAddressRefusal(
      `connect to ${hostname}`,
      addresses.map((entry) => entry.address),
      setting,
    );
    const first = addresses[0];
    if (refusal || !first) {
      callback(refusal ?? null, '', 0);
      return;
    }
    // net.connect asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
    if (wanted.all) (callback as (e: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
  return (hostname, wanted, callback) => {
    if (resolve) {
      resolve(hostname).then(
        (found) =>
          answer(
            hostname,
            wanted,
            callback,
            null,
            found.map((address) => ({ address, family: nodeNet().isIP(address) === 6 ? 6 : 4 })),
          ),
        (error: Error) => answer(hostname, wanted, callback, error, []),
      );
      return;
    }
    nodeDns().lookup(hostname, { ...wanted, all: true }, (error, addresses: LookupAddress[]) =>
      answer(hostname, wanted, callback, error, addresses),
    );
  };
}

const guardedLookup = createGuardedLookup();

let guardedAgent: Agent | undefined;

/**
 * `fetch` whose connections go through {@link guardedLookup}: the default of every tool that
 * reads the public web, so a page cannot redirect or rebind its way into the private network.
 */
export const guardedFetch: typeof fetch = async (input, init) => {
  // undici's own fetch with its own Agent: Node's built-in fetch may bundle another undici major,
  // whose dispatcher interface differs. Its Request/Response are the WHATWG ones under other types.
  // Loaded on the first request, so importing cohort does not pay for it.
  const undici = await import('undici');
  return (await undici.fetch(input as Parameters<typeof UndiciFetch>[0], {
    ...(init as Parameters<typeof UndiciFetch>[1]),
    dispatcher: (guardedAgent ??= new undici.Agent({ connect: { lookup: guardedLookup } })),
  })) as unknown as Response;
};
