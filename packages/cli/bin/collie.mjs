#!/usr/bin/env node
import '../dist/collie.mjs';
