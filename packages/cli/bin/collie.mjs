#!/usr/bin/env node
// The binary a skill installed before bin/collie.cjs names: still every verb, walky too.
import '../dist/collie.mjs';
