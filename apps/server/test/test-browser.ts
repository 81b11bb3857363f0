/**
 * What the single sign-on API tests need of a browser, over real HTTP: cookies kept per host and
 * path (as Set-Cookie sets them, expiry by Max-Age=0 or a past Expires) and sent back, redirects
 * followed one by one so a test can stop where a person would act (the provider's sign-in page) or
 * look at where it was sent. Not a browser: the Playwright spec (apps/web/e2e/sso.spec.ts) runs
 * the flow in a real one.
 */
interface Cookie {
  name: string;
  value: string;
  path: string;
}

export interface Visit {
  url: URL;
  status: number;
  location?: URL;
  body: string;
  /** Every address the browser went through, the first included. */
  chain: URL[];
}

export class TestBrowser {
  private readonly jar = new Map<string, Cookie[]>();

  /** The cookie of that name the browser holds for a host, if any. */
  cookie(url: string | URL, name: string): string | undefined {
    const target = new URL(url);
    return this.cookiesFor(target).find((c) => c.name === name)?.value;
  }

  /** Sets a cookie by hand (a test that copies one browser's cookie into another). */
  setCookie(url: string | URL, name: string, value: string, path = '/'): void {
    this.store(new URL(url), [`${name}=${value}; Path=${path}`]);
  }

  private cookiesFor(url: URL): Cookie[] {
    return (this.jar.get(url.host) ?? []).filter((c) => url.pathname.startsWith(c.path));
  }

  private store(url: URL, setCookies: string[]): void {
    const cookies = this.jar.get(url.host) ?? [];
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.split('=')[1];
      const path = attr('Path') ?? '/';
      const expires = attr('Expires');
      const gone =
        attr('Max-Age') === '0' ||
        (expires !== undefined && new Date(expires).getTime() < Date.now()) ||
        value === '';
      const rest = cookies.filter((c) => !(c.name === name && c.path === path));
      if (!gone) rest.push({ name, value, path });
      cookies.length = 0;
      cookies.push(...rest);
    }
    this.jar.set(url.host, cookies);
  }

  /** One request, no redirect followed. */
  async request(
    url: string | URL,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<{ url: URL; status: number; location?: URL; body: string; headers: Headers }> {
    const target = new URL(url);
    const cookie = this.cookiesFor(target)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.store(target, response.headers.getSetCookie());
    const location = response.headers.get('location');
    return {
      url: target,
      status: response.status,
      ...(location ? { location: new URL(location, target) } : {}),
      body: await response.text(),
      headers: response.headers,
    };
  }

  /**
   * Goes to an address and follows its redirects, until an answer that is no redirect or an
   * address `stopAt` says to stay at (not requested then).
   */
  async visit(
    url: string | URL,
    init: { form?: Record<string, string>; stopAt?: (url: URL) => boolean } = {},
  ): Promise<Visit> {
    const chain: URL[] = [];
    let next = await this.request(url, init.form ? { form: init.form } : {});
    chain.push(next.url);
    for (let hops = 0; next.location && hops < 20; hops += 1) {
      if (init.stopAt?.(next.location)) {
        chain.push(next.location);
        return { url: next.location, status: next.status, location: next.location, body: next.body, chain };
      }
      next = await this.request(next.location);
      chain.push(next.url);
    }
    return {
      url: next.url,
      status: next.status,
      body: next.body,
      chain,
      ...(next.location ? { location: next.location } : {}),
    };
  }
}
