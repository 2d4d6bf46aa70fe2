/**
 * Generated logs of varied layouts (syslog, log4j with stack traces, logcat, Apache's error log,
 * kernel priorities, logfmt, a test runner, an access log), each line from a known event
 * template, for developing and checking the evidence engine on logs it was not tuned on. Every
 * log has common templates (some with error words at an info level), severe ones of varied
 * frequency, and rare ones; the labels follow the same rules as bench/real-logs.mjs.
 *
 *   import { variedLogs } from "./varied-logs.mjs";
 *   variedLogs({ lines: 2000, seed: 7 });  // [{ name, text, lines, templates }]
 */

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "bravo", "cache", "delta", "ember", "falcon", "granite", "harbor"];
const USERS = ["root", "alice", "bob", "deploy", "nobody"];
const pick = (r, list) => list[Math.floor(r() * list.length)];
const int = (r, n) => Math.floor(r() * n);
const hex = (r, n) =>
  Array.from({ length: n }, () => "0123456789abcdef"[int(r, 16)]).join("") + String(int(r, 9));
const pad = (n, w = 2) => String(n).padStart(w, "0");

/**
 * One layout: how a header is written for a line number and level, and its templates. A
 * template is [level, weight, body(r)]: weight 0 makes it rare (once or twice in the log).
 */
const LAYOUTS = [
  {
    name: "syslog",
    header: (i, _level, r) =>
      `Nov ${pad(1 + (i >> 11), 2).replace(/^0/, " ")} ${pad((i >> 7) % 24)}:${pad((i >> 1) % 60)}:${pad(i % 60)} node${int(r, 3)} `,
    templates: [
      [
        "info",
        30,
        (r) =>
          `sshd[${int(r, 9e4)}]: Accepted publickey for ${pick(r, USERS)} from 10.0.${int(r, 255)}.${int(r, 255)} port ${int(r, 65535)} ssh2`,
      ],
      [
        "info",
        25,
        (r) =>
          `CRON[${int(r, 9e4)}]: pam_unix(cron:session): session opened for user ${pick(r, USERS)} by (uid=0)`,
      ],
      [
        "info",
        25,
        (r) =>
          `CRON[${int(r, 9e4)}]: pam_unix(cron:session): session closed for user ${pick(r, USERS)}`,
      ],
      ["info", 10, (r) => `systemd[1]: Started Session ${int(r, 9999)} of user ${pick(r, USERS)}.`],
      [
        "info",
        6,
        (r) =>
          `kernel: [${int(r, 9e5)}.${int(r, 999)}] EDAC MC0: 1 CE memory read error corrected on DIMM ${int(r, 4)}`,
      ],
      ["info", 3, (r) => `dhclient[${int(r, 999)}]: DHCPACK from 10.0.0.1 (xid=0x${hex(r, 7)})`],
      ["info", 0, () => "systemd[1]: Reloading OpenBSD Secure Shell server."],
      [
        "info",
        0,
        (r) =>
          `kernel: [${int(r, 9e5)}.1] usb 2-1: new high-speed USB device number ${int(r, 9)} using ehci-pci`,
      ],
      ["info", 0, () => "ntpd[812]: clock step of 0.48 s; stratum changed"],
      [
        "error",
        2,
        (r) =>
          `sshd[${int(r, 9e4)}]: pam_unix(sshd:auth): authentication failure; logname= uid=0 rhost=203.0.113.${int(r, 255)}`,
      ],
      [
        "error",
        1,
        (r) =>
          `sshd[${int(r, 9e4)}]: error: maximum authentication attempts exceeded for ${pick(r, USERS)}`,
      ],
      [
        "error",
        0,
        () =>
          "kernel: EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: comm ls: reading directory lblock 0",
      ],
      ["crit", 0, () => "kernel: Out of memory: Killed process 4411 (java) total-vm:8123456kB"],
      [
        "warning",
        0,
        () =>
          "smartd[702]: Device: /dev/sdb, SMART Prefailure Attribute: 5 Reallocated_Sector_Ct changed from 100 to 97",
      ],
    ],
  },
  {
    name: "log4j",
    header: (i, level) =>
      `2026-11-30 ${pad((i >> 12) % 24)}:${pad((i >> 6) % 60)}:${pad(i % 60)},${pad(i % 1000, 3)} ${level.toUpperCase().padEnd(5)} [worker-${i % 8}] `,
    templates: [
      [
        "info",
        30,
        (r) => `com.shop.OrderService - order ${int(r, 1e6)} placed by customer ${int(r, 1e5)}`,
      ],
      ["info", 20, (r) => `com.shop.Inventory - reserved ${int(r, 9)} items of sku ${hex(r, 6)}`],
      [
        "info",
        15,
        (r) => `com.shop.http.Access - GET /api/orders/${int(r, 1e5)} 200 ${int(r, 300)}ms`,
      ],
      [
        "debug",
        15,
        (r) => `com.shop.cache.Lru - evicted ${int(r, 99)} entries, size ${int(r, 1e4)}`,
      ],
      ["info", 5, (r) => `com.shop.Payments - retry policy: error budget ${int(r, 99)}% remaining`],
      ["info", 0, () => "com.shop.Config - feature flag checkout-v2 enabled by admin"],
      ["info", 0, () => "com.shop.Boot - schema migration 2026_11_30 applied"],
      [
        "warn",
        2,
        (r) => `com.shop.Payments - slow response from gateway: ${1000 + int(r, 9000)}ms`,
      ],
      ["warn", 0, () => "com.shop.pool.Hikari - connection pool nearly exhausted (19/20)"],
      ["error", 1, (r) => `com.shop.Payments - charge ${int(r, 1e6)} failed: card_declined`],
      [
        "error",
        0,
        () => "com.shop.OrderService - java.lang.IllegalStateException: order already shipped",
      ],
      ["fatal", 0, () => "com.shop.Boot - cannot bind port 8080, shutting down"],
    ],
    trace: [
      "\tat com.shop.OrderService.ship(OrderService.java:212)",
      "\tat com.shop.http.Router.handle(Router.java:88)",
      "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
    ],
  },
  {
    name: "logcat",
    header: (i, level) =>
      `11-30 ${pad((i >> 12) % 24)}:${pad((i >> 6) % 60)}:${pad(i % 60)}.${pad(i % 1000, 3)}  ${1000 + (i % 7)}  ${2000 + (i % 31)} ${level} `,
    level: { info: "I", debug: "D", warn: "W", error: "E", fatal: "F" },
    templates: [
      [
        "info",
        30,
        (r) =>
          `ActivityManager: Start proc ${int(r, 9e4)}:com.example.app/u0a${int(r, 200)} for service`,
      ],
      [
        "debug",
        30,
        (r) =>
          `ConnectivityService: notifyType CAP_CHANGED for NetworkAgentInfo [WIFI () - ${int(r, 999)}]`,
      ],
      [
        "info",
        15,
        (r) => `chatty  : uid=${int(r, 9e4)}(u0_a${int(r, 200)}) identical ${int(r, 40)} lines`,
      ],
      ["debug", 10, (r) => `WifiStateMachine: ConnectedState !CMD_RSSI_POLL ${int(r, 99)}`],
      ["info", 0, () => "PackageManager: Package com.example.app codePath changed"],
      ["info", 0, () => "BootReceiver: Copying audit failures to DropBox"],
      ["warn", 2, (r) => `Binder  : Slow Binder call, took ${int(r, 999)}ms`],
      ["error", 1, (r) => `AndroidRuntime: Process com.example.app (pid ${int(r, 9e4)}) has died`],
      ["error", 0, () => "SQLiteLog: (14) cannot open file at line 36356 of [8a8ffc8b3b]"],
      ["fatal", 0, () => "libc    : Fatal signal 11 (SIGSEGV), code 1, fault addr 0x0 in tid 4411"],
    ],
  },
  {
    name: "apache",
    header: (i, level) =>
      `[${pick(() => (i % 7) / 7, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])} Nov ${pad(1 + (i >> 11))} ${pad((i >> 7) % 24)}:${pad((i >> 1) % 60)}:${pad(i % 60)} 2026] [${level}] `,
    templates: [
      [
        "notice",
        40,
        (r) => `jk2_init() Found child ${int(r, 9e4)} in scoreboard slot ${int(r, 12)}`,
      ],
      ["notice", 30, () => "workerEnv.init() ok /etc/httpd/conf/workers2.properties"],
      ["error", 25, (r) => `mod_jk child workerEnv in error state ${int(r, 9)}`],
      ["notice", 0, () => "Apache/2.4.62 configured -- resuming normal operations"],
      ["notice", 0, () => "Digest: generating secret for digest authentication ..."],
      [
        "error",
        1,
        (r) => `[client 198.51.100.${int(r, 255)}] File does not exist: /var/www/html/favicon.ico`,
      ],
      [
        "error",
        0,
        (r) =>
          `[client 198.51.100.${int(r, 255)}] Directory index forbidden by rule: /var/www/html/`,
      ],
      ["crit", 0, () => "(28)No space left on device: couldn't create accept lock"],
      ["alert", 0, () => "mod_ssl: private key does not match the certificate"],
      [
        "emerg",
        0,
        () => "(98)Address already in use: make_sock: could not bind to address 0.0.0.0:80",
      ],
    ],
  },
  {
    name: "kernel",
    header: (i, level) =>
      `<${{ info: 6, notice: 5, warn: 4, error: 3, crit: 2 }[level] ?? 6}>[${pad(i >> 4, 6)}.${pad(i % 1000, 6)}] `,
    templates: [
      [
        "info",
        30,
        (r) => `e1000e: eth0 NIC Link is Up ${pick(r, ["100", "1000"])} Mbps Full Duplex`,
      ],
      [
        "info",
        25,
        (r) =>
          `audit: type=1400 audit(${int(r, 1e9)}.${int(r, 999)}:${int(r, 999)}): apparmor="ALLOWED" operation="open"`,
      ],
      ["notice", 20, (r) => `random: crng reseeded on system resumption ${int(r, 99)}`],
      ["info", 10, (r) => `IPv6: ADDRCONF(NETDEV_CHANGE): wlan${int(r, 3)}: link becomes ready`],
      ["info", 0, () => "Bluetooth: BNEP socket layer initialized"],
      ["info", 0, () => "zram0: detected capacity change from 0 to 16777216"],
      [
        "warn",
        1,
        (r) => `thermal thermal_zone${int(r, 4)}: critical temperature reached, shutting down soon`,
      ],
      ["error", 1, (r) => `usb 1-${int(r, 4)}: device descriptor read/64, -71`],
      ["error", 0, () => "blk_update_request: I/O error, dev sda, sector 123456 op 0x0:(READ)"],
      ["crit", 0, () => "BUG: unable to handle page fault for address: ffffffffc0a5b000"],
    ],
  },
  {
    name: "logfmt",
    header: (i, level) =>
      `ts=2026-11-30T${pad((i >> 12) % 24)}:${pad((i >> 6) % 60)}:${pad(i % 60)}.${pad(i % 1000, 3)}Z level=${level} `,
    templates: [
      [
        "info",
        40,
        (r) =>
          `msg="request served" method=GET path=/v1/items/${int(r, 1e4)} status=200 dur=${int(r, 300)}ms`,
      ],
      ["info", 20, (r) => `msg="cache hit" key=user:${int(r, 1e5)}`],
      ["debug", 20, (r) => `msg="queue depth" depth=${int(r, 99)}`],
      ["info", 0, () => 'msg="leader elected" node=api-2'],
      ["info", 0, () => 'msg="config reloaded" source=consul'],
      ["warn", 2, (r) => `msg="slow query" table=orders dur=${1000 + int(r, 5000)}ms`],
      ["error", 1, (r) => `msg="upstream returned 503" upstream=billing attempt=${int(r, 5)}`],
      ["crit", 0, () => 'msg="data directory not writable" path=/var/lib/app'],
    ],
  },
  {
    name: "test-run",
    header: () => "",
    templates: [
      [
        "info",
        60,
        (r) =>
          `  ✓ case ${int(r, 9)}.${int(r, 99)} handles input ${pick(r, WORDS)} (${int(r, 40)} ms)`,
      ],
      [
        "info",
        10,
        (r) =>
          ` PASS  src/${pick(r, WORDS)}/${pick(r, WORDS)}.test.ts (${int(r, 9)}.${int(r, 99)} s)`,
      ],
      ["info", 0, () => "Test Suites: 41 passed, 1 failed, 42 total"],
      ["error", 0, () => " FAIL  src/checkout/total.test.ts"],
      ["error", 0, () => "  ✗ case 7.12 rounds the total (12 ms)"],
      ["error", 0, () => "    Expected: 10.05  Received: 10.04"],
    ],
  },
  {
    name: "access",
    header: (i) =>
      `10.0.${i % 7}.${i % 251} - - [30/Nov/2026:${pad((i >> 12) % 24)}:${pad((i >> 6) % 60)}:${pad(i % 60)} +0000] `,
    templates: [
      [
        "info",
        50,
        (r) => `"GET /api/items/${int(r, 1e4)} HTTP/1.1" 200 ${int(r, 9000)} "-" "curl/8.5"`,
      ],
      ["info", 20, (r) => `"POST /api/cart HTTP/1.1" 201 ${int(r, 900)} "-" "Mozilla/5.0"`],
      ["info", 10, (r) => `"GET /static/${pick(r, WORDS)}.js HTTP/1.1" 304 0 "-" "Mozilla/5.0"`],
      ["info", 0, () => `"GET /robots.txt HTTP/1.1" 404 0 "-" "Googlebot/2.1"`],
      ["info", 0, () => `"DELETE /api/cart/7 HTTP/1.1" 403 0 "-" "python-requests/2.31"`],
      ["error", 1, (r) => `"GET /api/checkout HTTP/1.1" 502 ${int(r, 200)} "-" "Mozilla/5.0"`],
      ["error", 0, () => `"POST /api/pay HTTP/1.1" 500 0 "-" "Mozilla/5.0"`],
    ],
  },
];

/** The words that make a template severe in both benches' labels (fixed here, not taken from src/). */
export const LABEL_WORDS = [
  "error",
  "fail",
  "fatal",
  "exception",
  "denied",
  "refused",
  "timeout",
  "panic",
  "abort",
  "critical",
  "warn",
];
const LABEL_LEVELS = new Set([
  "error",
  "warn",
  "warning",
  "fatal",
  "crit",
  "critical",
  "alert",
  "emerg",
]);

/**
 * The logs: `lines` lines of each layout, the frequent templates drawn by weight, each rare one
 * once or twice at a random place, each severe one with weight 1 or 2 a handful of times.
 */
export function variedLogs({ lines = 2000, seed = 1130 } = {}) {
  return LAYOUTS.map((layout, n) => {
    const r = random(seed + n * 7919);
    const total = layout.templates.reduce((a, t) => a + t[1], 0);
    const events = [];
    for (let i = 0; i < lines; i++) {
      let x = r() * total;
      let k = 0;
      for (; k < layout.templates.length; k++) {
        x -= layout.templates[k][1];
        if (x < 0) break;
      }
      events.push(Math.min(k, layout.templates.length - 1));
    }
    // Rare templates: once or twice each, anywhere.
    layout.templates.forEach((t, k) => {
      if (t[1] !== 0) return;
      for (let c = 1 + int(r, 2); c > 0; c--) events[int(r, lines)] = k;
    });
    const out = [];
    const templates = layout.templates.map(([level, , body]) => ({
      lines: [],
      severe:
        LABEL_LEVELS.has(level) ||
        LABEL_WORDS.some((w) => body(random(1)).toLowerCase().includes(w)),
      text: body(random(1)),
    }));
    events.forEach((k, i) => {
      const [level, , body] = layout.templates[k];
      const shown = layout.level?.[level] ?? level;
      const line = `${layout.header(i, shown, r)}${body(r)}`;
      out.push(line);
      templates[k].lines.push(line);
      // A stack trace follows an exception: context, not templates of its own.
      if (layout.trace && body(random(1)).includes("Exception")) out.push(...layout.trace);
    });
    return {
      name: layout.name,
      text: out.join("\n"),
      lines: out,
      templates: templates.filter((t) => t.lines.length > 0),
    };
  });
}
