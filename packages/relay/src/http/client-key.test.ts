import { describe, expect, it } from "vitest";
import { clientKey } from "./client-key.js";

describe("clientKey", () => {
  it("is the IPv4 address, also when IPv4-mapped", () => {
    expect(clientKey("127.0.0.1")).toBe("127.0.0.1");
    expect(clientKey("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(clientKey("::FFFF:10.0.0.1")).toBe("10.0.0.1");
  });

  it("is the /64 of an IPv6 address, however it is written", () => {
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:DB8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:ffff::")).toBe(clientKey("2001:db8:1:2::9"));
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("1::2:3:4:1.2.3.4")).toBe("1:0:0:2::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });

  it("names a missing address", () => {
    expect(clientKey(undefined)).toBe("unknown");
    expect(clientKey("")).toBe("unknown");
  });
});
