import type { Logger } from '@svc/log';
import { type Browser, chromium } from 'playwright-core';

/**
 * Chromium flags (design "Worker"): headless, no sandbox (containers run it as an unprivileged user
 * without the namespaces the sandbox needs; isolation comes from JS off + network blocked per
 * context), no GPU, and none of chromium's own background traffic (QUIC, component updates, sync,
 * first-run tasks): the browser talks to nothing.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export interface BrowserHostOptions {
  /** CHROMIUM_PATH: the system chromium (playwright-core downloads no browser). */
  executablePath: string;
  /** ms: how long a launch may take before it counts as failed. */
  launchTimeoutMs: number;
  logger: Logger;
}

/**
 * One chromium per worker process (design "Worker"), launched on the first render, not at start-up
 * (a browser worker that gets no html-to-pdf job never pays for it). A browser that crashes or is
 * closed is forgotten on its `disconnected` event, and the next `get()` launches a new one. A failed
 * launch rejects that `get()` (the render attempt throws and BullMQ retries it) and is tried again
 * on the next. Concurrent `get()`s during a launch share it.
 */
export class BrowserHost {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private closed = false;

  constructor(private readonly options: BrowserHostOptions) {}

  async get(): Promise<Browser> {
    if (this.closed) throw new Error('the browser host is closed (worker shutting down)');
    if (this.browser?.isConnected()) return this.browser;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /** Closes the browser (at shutdown, after the job consumers drained); later `get()`s throw. */
  async close(): Promise<void> {
    this.closed = true;
    await this.launching?.catch(() => {});
    const browser = this.browser;
    this.browser = undefined;
    if (browser?.isConnected()) await browser.close();
  }

  private async launch(): Promise<Browser> {
    const started = Date.now();
    const browser = await chromium.launch({
      executablePath: this.options.executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: this.options.launchTimeoutMs,
      // runService owns the signals: shutdown closes the browser through close() after the jobs.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    if (this.closed) {
      // close() ran while this launch was under way: do not leave a browser behind.
      await browser.close();
      throw new Error('the browser host is closed (worker shutting down)');
    }
    browser.on('disconnected', () => {
      if (this.browser === browser) this.browser = undefined;
      if (!this.closed) this.options.logger.warn('chromium disconnected; the next render launches a new one');
    });
    this.browser = browser;
    this.options.logger.info(
      { version: browser.version(), launch_ms: Date.now() - started },
      'chromium launched',
    );
    return browser;
  }
}
