import { lookup as dnsLookupCallback, type LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { CohortError } from '../errors/index.js';

/** Resolves a host name to every address it has (injected so tests need no DNS). */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver: every A and AAAA address of `host`. */
export const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const IPV4_PRIVATE: Array<[number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8: "this network", reaches local services
  [0x7f000000, 8], // 127/8 loopback
  [0x0a000000, 8], // 10/8
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
  [0xa9fe0000, 16], // 169.254/16 link-local, cloud metadata
];

const ipv4Number = (ip: string) =>
  ip.split('.').reduce((value, part) => (value << 8) + Number(part), 0) >>> 0;

function ipv4Private(ip: string): boolean {
  const value = ipv4Number(ip);
  return IPV4_PRIVATE.some(([base, bits]) => value >>> (32 - bits) === base >>> (32 - bits));
}

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = ipv4Number(tail[1]);
    text =
      text.slice(0, -tail[1].length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = text.includes('::') ? 8 - left.length - right.length : 0;
  return [...left, ...Array<string>(fill).fill('0'), ...right].map((group) =>
    parseInt(group || '0', 16),
  );
}

/**
 * True for loopback, private, link-local and unspecified addresses (IPv4: 0/8, 127/8, 10/8,
 * 172.16/12, 192.168/16, 169.254/16; IPv6: ::, ::1, fc00::/7, fe80::/10, and IPv4-mapped forms).
 *
 * @example
 * isPrivateAddress('10.1.2.3'); // true
 * isPrivateAddress('93.184.216.34'); // false
 */
export function isPrivateAddress(ip: string): boolean {
  const version = isIP(ip.split('%')[0] ?? '');
  if (version === 4) return ipv4Private(ip);
  if (version !== 6) return true; // not an address: refuse rather than guess
  const groups = ipv6Groups(ip);
  const [first = 0] = groups;
  if (groups.slice(0, 7).every((group) => group === 0) && (groups[7] === 0 || groups[7] === 1))
    return true;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) carry an IPv4 address.
  if (
    groups.slice(0, 5).every((group) => group === 0) &&
    (groups[5] === 0xffff || groups[5] === 0)
  ) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return ipv4Private(`${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`);
  }
  return false;
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
  if (isIP(host)) addresses = [host];
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
function privateAddressRefusal(action: string, addresses: string[]): CohortError | undefined {
  const blocked = addresses.filter(isPrivateAddress);
  if (addresses.length > 0 && blocked.length === 0) return undefined;
  return new CohortError(
    'forbidden',
    `Refusing to ${action}: it resolves to a private or loopback address (${blocked.join(', ') || 'none'}). Set tools.allowPrivateNetwork to allow it.`,
    { field: 'url' },
  );
}

/**
 * The resolver the connection itself uses: it refuses private and loopback addresses at connect
 * time. {@link assertPublicUrl} checks a name before the request, but a name can resolve again to
 * another address when the socket opens (DNS rebinding); this check runs on that second answer.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookupCallback(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const refusal = privateAddressRefusal(
      `connect to ${hostname}`,
      addresses.map((entry) => entry.address),
    );
    const first = addresses[0];
    if (refusal || !first) {
      callback(refusal ?? null, '', 0);
      return;
    }
    // net.connect asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
    if (options.all) (callback as (e: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  });
};

let guardedAgent: Agent | undefined;

/**
 * `fetch` whose connections go through {@link guardedLookup}: the default of every tool that
 * reads the public web, so a page cannot redirect or rebind its way into the private network.
 */
export const guardedFetch: typeof fetch = (input, init) =>
  // undici's own fetch with its own Agent: Node's built-in fetch may bundle another undici major,
  // whose dispatcher interface differs. Its Request/Response are the WHATWG ones under other types.
  undiciFetch(input as Parameters<typeof undiciFetch>[0], {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher: (guardedAgent ??= new Agent({ connect: { lookup: guardedLookup } })),
  }) as unknown as Promise<Response>;
