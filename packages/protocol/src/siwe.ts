/**
 * EIP-4361 (Sign-In with Ethereum) messages: built as the SDK and the docs site sign them, parsed
 * strictly by the ABNF's line structure as a node reads them.
 *
 * Why not viem's `parseSiweMessage`: importing `viem/siwe` loads most of viem, 17 MB of resident
 * memory in every relay worker for one function. The tests build messages with viem's
 * `createSiweMessage` and compare both parsers on them.
 */
import { checksumAddress } from "./address.js";

export interface SiweMessage {
  scheme?: string;
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}

/** What `buildSiweMessage` needs: times as epoch ms; version 1, chain id 1. */
export interface SiweFields {
  /** `host:port` the node serves. */
  domain: string;
  /** Any case; written EIP-55 checksummed. */
  address: string;
  /** The node's URL. */
  uri: string;
  statement?: string;
  nonce: string;
  issuedAt: number;
  expiresAt: number;
  notBefore?: number;
}

/** The EIP-4361 text of a neutralService sign-in (version 1, chain id 1, with an expiration time). */
export function buildSiweMessage(fields: SiweFields): string {
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    checksumAddress(fields.address),
    "",
    ...(fields.statement === undefined ? [] : [fields.statement]),
    "",
    `URI: ${fields.uri}`,
    "Version: 1",
    "Chain ID: 1",
    `Nonce: ${fields.nonce}`,
    `Issued At: ${new Date(fields.issuedAt).toISOString()}`,
    `Expiration Time: ${new Date(fields.expiresAt).toISOString()}`,
    ...(fields.notBefore === undefined ? [] : [`Not Before: ${new Date(fields.notBefore).toISOString()}`]),
  ].join("\n");
}

const HEADER = /^(?:([a-zA-Z][a-zA-Z0-9+\-.]*):\/\/)?(\S+) wants you to sign in with your Ethereum account:$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CHAIN_ID = /^[0-9]{1,15}$/;

/** The message's fields, or undefined when the text is not an EIP-4361 message. */
export function parseSiweMessage(text: string): SiweMessage | undefined {
  const lines = text.split("\n");
  let at = 0;
  const next = () => lines[at++];
  const field = (prefix: string): string | undefined => {
    const line = lines[at];
    if (line === undefined || !line.startsWith(prefix)) return undefined;
    at++;
    return line.slice(prefix.length);
  };

  const header = HEADER.exec(next() ?? "");
  const address = next();
  if (!header || address === undefined || !ADDRESS.test(address) || next() !== "") return undefined;
  // `address LF LF [ statement LF ] LF`: one blank line, an optional statement, one blank line.
  let statement: string | undefined;
  if (lines[at] !== "") statement = next();
  if (next() !== "") return undefined;
  const uri = field("URI: ");
  const version = field("Version: ");
  const chainId = field("Chain ID: ");
  const nonce = field("Nonce: ");
  const issuedAt = field("Issued At: ");
  if (!uri || version === undefined || chainId === undefined || !CHAIN_ID.test(chainId) || nonce === undefined || issuedAt === undefined) {
    return undefined;
  }
  const expirationTime = field("Expiration Time: ");
  const notBefore = field("Not Before: ");
  const requestId = field("Request ID: ");
  let resources: string[] | undefined;
  if (lines[at] === "Resources:") {
    at++;
    resources = [];
    for (let resource = field("- "); resource !== undefined; resource = field("- ")) resources.push(resource);
  }
  if (at !== lines.length) return undefined; // anything left over is not EIP-4361

  return {
    ...(header[1] !== undefined && { scheme: header[1] }),
    domain: header[2]!,
    address,
    ...(statement !== undefined && { statement }),
    uri,
    version,
    chainId: Number(chainId),
    nonce,
    issuedAt,
    ...(expirationTime !== undefined && { expirationTime }),
    ...(notBefore !== undefined && { notBefore }),
    ...(requestId !== undefined && { requestId }),
    ...(resources !== undefined && { resources }),
  };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 date-time (as EIP-4361 requires), or undefined. */
export function parseSiweTime(value: string | undefined): number | undefined {
  if (value === undefined || !RFC3339.test(value)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}
