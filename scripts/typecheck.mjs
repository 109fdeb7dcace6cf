// Type-checks each package against its own tsconfig (scripts/checks.mjs), side by side.
import { runJobs, typechecks } from './checks.mjs';

const failed = await runJobs(typechecks());
for (const name of failed) console.error(`${name}: errors`);
process.exit(failed.length ? 1 : 0);
