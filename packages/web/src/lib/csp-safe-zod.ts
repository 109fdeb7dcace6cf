import { z } from 'zod';

// The bridge's CSP has no 'unsafe-eval'. zod compiles a fast path for object schemas with
// `new Function`, and probing for it already files a CSP violation report, so switch it off
// before the first parse. Validation stays the same, only the compiled shortcut is skipped.
z.config({ jitless: true });
