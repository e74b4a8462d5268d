import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newDataKeyText, type DataKeyConfig } from './kit/crypt/index.js';

/** Everything the server reads from its environment, in one place (README "Configuration"). */
export interface Config {
  port: number;
  host: string;
  /** PGlite data directory, used when no databaseUrl is given. */
  dataDir: string;
  databaseUrl?: string;
  /**
   * A read-only PostgreSQL for list pages and statistics (DATABASE_READ_URL; README "Read replica"):
   * a streaming replica of DATABASE_URL's database. Its connections are opened read-only. Unset: every
   * read goes to DATABASE_URL, as before. Needs DATABASE_URL.
   */
  databaseReadUrl?: string;
  /**
   * Connections each server process keeps to PostgreSQL, and to the replica (DATABASE_POOL_SIZE).
   * Default: twice the cores shared among the processes, at least 4 each (defaultPoolSize).
   */
  databasePoolSize: number;
  /**
   * Milliseconds a statement waits for a free connection before its request is answered "busy"
   * (HTTP 503) rather than held (DATABASE_POOL_WAIT_MS, default 30,000; 0 waits for ever).
   */
  databasePoolWaitMs: number;
  /**
   * Seconds a browser session that has just written reads its lists from the primary, not the
   * replica (READ_PRIMARY_AFTER_WRITE_SECONDS, default 10), so it sees its own change at once.
   */
  primaryAfterWriteSeconds: number;
  /** Seed the demo institution on first start (embedded mode only, unless forced). */
  demo: boolean;
  demoPassword: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  lockoutFailures: number;
  lockoutMinutes: number;
  loginPerMinutePerAddress: number;
  /** Wrong assessment codes / QR tokens one address may enter within the window before it is refused. */
  codeFailuresPerAddress: number;
  codeFailureWindowMinutes: number;
  /**
   * Code entries of one address still being answered that are let through beside its settled
   * failures (CODE_ENTRIES_IN_FLIGHT_PER_ADDRESS, default 100): a computer room of students behind
   * one school address entering at the same moment is not refused, while a burst of guesses tries
   * at most this many more than codeFailuresPerAddress before its failures count.
   */
  codeEntriesInFlightPerAddress: number;
  /**
   * Persons one client address may register through institutions' QR links per hour
   * (LINK_ENTRIES_PER_ADDRESS_PER_HOUR, default 60: a class of 50 behind one school address fits).
   */
  linkEntriesPerAddressPerHour: number;
  /** Persons one institution's QR link may register per hour, whatever the addresses (LINK_ENTRIES_PER_LINK_PER_HOUR, default 300). */
  linkEntriesPerLinkPerHour: number;
  /** Wrong PINs one student of a PIN task may enter before their PIN is locked until their slip is printed again (TASK_PIN_FAILURES, default 5). */
  taskPinFailures: number;
  bodyLimitBytes: number;
  /**
   * What is read of a body before its caller is known to be allowed the action (PREAUTH_BODY_LIMIT_BYTES,
   * default 64 KiB): unauthenticated calls, public actions, form posts, callers without the action's code.
   * bodyLimitBytes and an action's maxBodyBytes apply only to a signed-in caller allowed the action.
   */
  preauthBodyLimitBytes: number;
  /** The body limit of a respondent action called with a valid respondent token (RESPONDENT_BODY_LIMIT_BYTES, default 384 KiB: a consent signature of 200 KB is 273 KB in base64). */
  respondentBodyLimitBytes: number;
  /** Built console to serve; absent in API-only runs. */
  webDist?: string;
  logLevel: string;
  /**
   * Honour X-Forwarded-For and X-Forwarded-Proto (TRUST_PROXY=1): set it only behind a reverse proxy
   * that sets them (deploy/nginx/xinli.conf), or a client could name its own address.
   */
  trustProxy: boolean;
  /** GET /metrics answers only with this bearer token (METRICS_TOKEN, at least 16 characters); unset, /metrics is off (404). */
  metricsToken?: string;
  /**
   * Server processes `npm run serve` starts (SERVER_PROCESSES, default one per core). PostgreSQL only:
   * the embedded PGlite is one process's database, so embedded mode always runs one process.
   */
  processes: number;
  /** How long a resolved caller may be reused (AUTH_CACHE_MS; 0: every request reads its session). */
  authCacheMs: number;
  /** Where respondents reach this server (PUBLIC_BASE_URL): institution links are `<base>/r/<token>`. */
  publicBaseUrl: string;
  /** Outbound warning notifications (WARNING_WEBHOOK_URL, signed with WARNING_WEBHOOK_SECRET); none when unset. */
  warningWebhookUrl?: string;
  warningWebhookSecret?: string;
  /** How often each server process looks for due background jobs (JOB_POLL_MS; 0: never, as in tests, which run them by hand). */
  jobPollMs: number;
  /** The system Chromium that prints report PDFs (CHROMIUM_PATH); without it the server makes no PDFs. */
  chromiumPath: string;
  /**
   * PDF zip exports (issue 27 item 9): at most PDF_EXPORTS_PER_PROCESS (default 2) print at once in
   * one server process, and PDF_EXPORTS_PER_INSTITUTION (default 1) per account across all
   * processes; a finished background zip is kept PDF_EXPORT_KEEP_HOURS (default 24).
   */
  pdfExports: { perProcess: number; perInstitution: number; keepHours: number };
  /**
   * The LLM writer of AI individual reports (any OpenAI-compatible endpoint): AI_REPORT_BASE_URL,
   * AI_REPORT_API_KEY, AI_REPORT_MODEL, AI_REPORT_TIMEOUT_MS (default 60 s). Null unless URL and
   * model are set; the rule-based writer is always there.
   */
  aiReport: { baseUrl: string; apiKey: string; model: string; timeoutMs: number } | null;
  /** Minimum cell size of aggregates sent to the LLM (AI_MIN_CELL, default 5): smaller counts are suppressed. */
  aiMinCell: number;
  /**
   * Uploaded files (README "Files"): FILE_STORAGE disk (default; FILES_DIR, default DATA_DIR/files)
   * or s3 (S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
   * S3_FORCE_PATH_STYLE, S3_PREFIX). FILE_URL_SECRET signs this server's upload targets (disk
   * storage); unset, a random secret is kept in the database so every process shares it.
   */
  /**
   * The payment provider (PAYMENT_PROVIDER): `sandbox`, the development and test provider whose cashier
   * is a page of this server (the default of the embedded demo), or `none` (the default with
   * DATABASE_URL): the shop lists goods but takes no order.
   */
  paymentProvider: 'sandbox' | 'none';
  /** Minutes an unpaid order holds its stock before it is cancelled (ORDER_EXPIRY_MINUTES, default 30). */
  orderExpiryMinutes: number;
  /**
   * Days audit entries are kept before the daily retention job removes them (AUDIT_RETENTION_DAYS);
   * null (unset): the job is off and nothing is ever removed. Below 180 stops the start.
   */
  auditRetentionDays: number | null;
  /**
   * The data key of field encryption (README "Data key"): DATA_KEY (base64 of 32 bytes) or DATA_KEY_FILE
   * (a file holding it); DATA_KEY_PREVIOUS (comma-separated) still read while a rotation runs.
   * Unset: the embedded database keeps one in DATA_DIR/data.key; PostgreSQL in production refuses to start.
   */
  dataKeys: DataKeyConfig;
  files: {
    storage: 'disk' | 's3';
    dir?: string;
    s3?: S3Options;
    urlSecret?: string;
  };
}

/** Where FILE_STORAGE=s3 keeps files: the settings the object store (kit/storage/s3.ts) is built from. */
export interface S3Options {
  /** Endpoint of an S3-compatible store (MinIO, OSS, COS, …); unset for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Key prefix inside the bucket (e.g. `xinli/`). */
  prefix?: string;
}

const num = (v: string | undefined, fallback: number) => (v !== undefined && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : fallback);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  const cores = os.availableParallelism();
  const processes = databaseUrl ? Math.max(1, Math.floor(num(env.SERVER_PROCESSES, cores))) : 1;
  return {
    port: num(env.PORT, 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    databaseReadUrl: databaseReadUrl(env, databaseUrl),
    primaryAfterWriteSeconds: Math.max(1, num(env.READ_PRIMARY_AFTER_WRITE_SECONDS, 10)),
    demo: env.XINLI_DEMO ? env.XINLI_DEMO === '1' : !databaseUrl,
    demoPassword: env.XINLI_DEMO_PASSWORD || 'demo123',
    sessionIdleMinutes: num(env.SESSION_IDLE_MINUTES, 30),
    sessionAbsoluteHours: num(env.SESSION_ABSOLUTE_HOURS, 12),
    lockoutFailures: num(env.LOCKOUT_FAILURES, 5),
    lockoutMinutes: num(env.LOCKOUT_MINUTES, 15),
    loginPerMinutePerAddress: num(env.LOGIN_RATE_PER_MINUTE, 30),
    codeFailuresPerAddress: num(env.CODE_FAILURES_PER_ADDRESS, 10),
    codeFailureWindowMinutes: num(env.CODE_FAILURE_WINDOW_MINUTES, 15),
    codeEntriesInFlightPerAddress: num(env.CODE_ENTRIES_IN_FLIGHT_PER_ADDRESS, 100),
    linkEntriesPerAddressPerHour: num(env.LINK_ENTRIES_PER_ADDRESS_PER_HOUR, 60),
    linkEntriesPerLinkPerHour: num(env.LINK_ENTRIES_PER_LINK_PER_HOUR, 300),
    taskPinFailures: num(env.TASK_PIN_FAILURES, 5),
    bodyLimitBytes: num(env.BODY_LIMIT_BYTES, 2 * 1024 * 1024),
    preauthBodyLimitBytes: num(env.PREAUTH_BODY_LIMIT_BYTES, 64 * 1024),
    respondentBodyLimitBytes: num(env.RESPONDENT_BODY_LIMIT_BYTES, 384 * 1024),
    webDist: env.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: env.LOG_LEVEL ?? 'request',
    trustProxy: env.TRUST_PROXY === '1',
    metricsToken: metricsToken(env.METRICS_TOKEN),
    authCacheMs: num(env.AUTH_CACHE_MS, 5000),
    warningWebhookUrl: env.WARNING_WEBHOOK_URL || undefined,
    warningWebhookSecret: env.WARNING_WEBHOOK_SECRET || undefined,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${num(env.PORT, 3000)}`).replace(/\/+$/, ''),
    jobPollMs: num(env.JOB_POLL_MS, 1000),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    pdfExports: {
      perProcess: Math.max(1, Math.floor(num(env.PDF_EXPORTS_PER_PROCESS, 2))),
      perInstitution: Math.max(1, Math.floor(num(env.PDF_EXPORTS_PER_INSTITUTION, 1))),
      keepHours: Math.max(1, num(env.PDF_EXPORT_KEEP_HOURS, 24)),
    },
    aiReport:
      env.AI_REPORT_BASE_URL && env.AI_REPORT_MODEL
        ? { baseUrl: env.AI_REPORT_BASE_URL, apiKey: env.AI_REPORT_API_KEY || 'none', model: env.AI_REPORT_MODEL, timeoutMs: num(env.AI_REPORT_TIMEOUT_MS, 60_000) }
        : null,
    aiMinCell: Math.max(1, Math.floor(num(env.AI_MIN_CELL, 5))),
    files: filesConfig(env),
    dataKeys: dataKeysConfig(env),
    paymentProvider: paymentProvider(env.PAYMENT_PROVIDER, !databaseUrl && env.XINLI_DEMO !== '0'),
    orderExpiryMinutes: Math.max(1, num(env.ORDER_EXPIRY_MINUTES, 30)),
    auditRetentionDays: auditRetentionDays(env.AUDIT_RETENTION_DAYS),
    processes,
    databasePoolSize: Math.max(1, Math.floor(num(env.DATABASE_POOL_SIZE, defaultPoolSize(cores, processes)))),
    databasePoolWaitMs: Math.max(0, Math.floor(num(env.DATABASE_POOL_WAIT_MS, 30_000))),
  };
}

/**
 * Connections per process when DATABASE_POOL_SIZE is unset. PostgreSQL's own advice starts all
 * connections together at about twice the database server's cores: more connections than cores
 * only wait on each other (locks, CPU), and each costs its backend's memory. The default assumes
 * the database has as many cores as this machine; with a larger database server, set it. On the
 * 2-core bench (docs/submission-performance.md) 4 to 6 connections gave the same students a
 * second as 10 with 10 % less database CPU a student and a lower submit p95; 20 did worse on both.
 */
export const defaultPoolSize = (cores: number, processes: number) => Math.max(4, Math.ceil((2 * cores) / processes));

/** A replica only beside a primary: the embedded PGlite has none, so the pair would be a mistake. */
function databaseReadUrl(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): string | undefined {
  const url = env.DATABASE_READ_URL || undefined;
  if (url && !databaseUrl) throw new Error('DATABASE_READ_URL is set without DATABASE_URL: a read replica needs its PostgreSQL primary');
  return url;
}

/** The scrape token: a short one would be guessed, so the server refuses to start with it. */
function metricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 24)');
  return value;
}

/** Audit retention in whole days, at least 180 (Cybersecurity Law Art. 21: six months); unset: no removal. */
function auditRetentionDays(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 180) throw new Error(`AUDIT_RETENTION_DAYS=${value}: audit entries are kept at least 180 days (a whole number of days, 180 or more)`);
  return days;
}

/** The sandbox only where asked for, or in the embedded demo (not with XINLI_DEMO=0); an unknown name stops the start (no silent fallback to a test provider). */
function paymentProvider(value: string | undefined, embedded: boolean): Config['paymentProvider'] {
  if (!value) return embedded ? 'sandbox' : 'none';
  if (value === 'sandbox' || value === 'none') return value;
  throw new Error(`PAYMENT_PROVIDER=${value} is not a provider this server has (sandbox or none)`);
}

function filesConfig(env: NodeJS.ProcessEnv): Config['files'] {
  const urlSecret = env.FILE_URL_SECRET || undefined;
  if (env.FILE_STORAGE === 's3') {
    const missing = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((k) => !env[k]);
    if (missing.length) throw new Error(`FILE_STORAGE=s3 needs ${missing.join(', ')}`);
    return {
      storage: 's3',
      urlSecret,
      s3: {
        bucket: env.S3_BUCKET!,
        region: env.S3_REGION || 'us-east-1',
        endpoint: env.S3_ENDPOINT || undefined,
        accessKeyId: env.S3_ACCESS_KEY_ID!,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
        forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === '1' : !!env.S3_ENDPOINT,
        prefix: env.S3_PREFIX || undefined,
      },
    };
  }
  return { storage: 'disk', dir: env.FILES_DIR ? path.resolve(env.FILES_DIR) : undefined, urlSecret };
}

function dataKeysConfig(env: NodeJS.ProcessEnv): DataKeyConfig {
  const current = env.DATA_KEY || (env.DATA_KEY_FILE ? fs.readFileSync(env.DATA_KEY_FILE, 'utf8').trim() : undefined);
  const previous = (env.DATA_KEY_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return { current: current || undefined, previous };
}

/** One data key per test process: every database a test opens is sealed under it. */
const testDataKey = newDataKeyText();

/** Defaults for tests: no web, quiet logs, in-memory database chosen by the caller. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    webDist: undefined,
    logLevel: 'silent',
    demo: false,
    jobPollMs: 0,
    files: { storage: 'disk', dir: path.join(os.tmpdir(), 'xinli-test-files') },
    dataKeys: { current: testDataKey, previous: [] },
    ...overrides,
  };
}
