import type { ChildProcess } from 'node:child_process';
import type { WalkyMessage } from '@collie/protocol';
import { bridgeProcess } from './bridge-process';
import { CLI, runCli, walkyEnv } from './walky/kit';

/** A crew's lead as its own process (the installed CLI's `collie serve`), so a test can kill -9 it. */
export const serveLead = async (env: NodeJS.ProcessEnv): Promise<ChildProcess> => (await bridgeProcess(env, CLI)).child;

/** Kills a process with -9 and resolves once it has exited. */
export const killed = (c: ChildProcess): Promise<unknown> => new Promise((r) => (c.kill('SIGKILL'), c.once('exit', r)));

/** A walky message as `collie walky status --json` shows it on the machine of `state`, or null. */
export const walkyStatus = async (state: string, id: string): Promise<WalkyMessage | null> => JSON.parse((await runCli(['walky', 'status', id, '--json'], walkyEnv(state))).out || 'null') as WalkyMessage | null;
