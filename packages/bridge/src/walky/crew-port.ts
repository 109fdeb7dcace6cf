/**
 * What walky and the crew ask of each other (docs/walky.md, "Across a crew"). The crew's side
 * (`crew/walky-relay.ts`) signs, checks and carries; walky's side (`service.ts`) decides, logs
 * and types, in the one log, with the one set of receipts.
 */
import type { CrewWalkyItem, CrewWalkyOutcome, CrewWalkyTargets, WalkyEnvelope, WalkyMessage } from '@collie/protocol';
import type { ItemCheck } from '../crew/walky-sign';

/** This machine in its crew. `prefix` is the member part of its own addresses. */
export interface CrewSelf {
  role: 'lead' | 'member';
  /** The crew id on a lead, this machine's name on a member. */
  prefix: string;
  name: string;
  lead: string;
  leadVersion: string;
}

/** A try to pass messages on: the receipts as they came back, or why none came. */
export type Carried = { messages: WalkyMessage[] } | { refused: string } | { unknown: string };

/** The crew, as walky uses it. */
export interface CrewPort {
  me(): CrewSelf | null;
  /** On a lead: a member's version and whether its stream is up now (null: no such member). */
  member(name: string): { reachable: boolean; version: string } | null;
  /** On a lead: its members' names. */
  members(): string[];
  /** On a member: sign the message and post it to the lead (retried with the same id). */
  toLead(e: WalkyEnvelope): Promise<Carried>;
  /** On a member: the panes of the other machines a broadcast to `machine` reaches, as the lead knows them, or why the lead named none (`older lead`, `lead unreachable`, `<lead> answered <code>`). */
  targets(machine: string): Promise<CrewWalkyTargets | { refused: string }>;
  /** On a lead: post messages to one member, 8 s at most; `sig` absent when this lead is the origin. */
  toMember(member: string, items: { envelope: WalkyEnvelope; sig?: string; cert?: string; pane: string }[]): Promise<Carried>;
  /** On a lead: a member's messages to or from one of its panes (its own id there), from its own log; null when it cannot be read. */
  readMember(member: string, pane: string): Promise<WalkyMessage[] | null>;
  /** A receipt change to report: to the lead (on a member) or to the member that sent it (on a lead). */
  report(to: string, o: CrewWalkyOutcome): void;
}

/** Walky, as the crew's routes use it. */
export interface CrewWalkyHost {
  /** On a lead: a member's message, its origin signature already checked. */
  fromMember(e: WalkyEnvelope, sig: string, cert: string): Promise<WalkyMessage>;
  /** On a member: one message the lead passed on, with this machine's check of it. */
  fromLead(item: CrewWalkyItem, check: ItemCheck): Promise<WalkyMessage>;
  /** On a member: the messages to or from one of its panes, for the lead's phone (bodies masked). */
  read(pane: string): WalkyMessage[];
  /** On a lead: the panes a broadcast from member `from` to `machine` reaches beyond that member's own. */
  targets(from: string, machine: string): CrewWalkyTargets;
  /** Receipt changes `from` a machine reports; answers the ids taken (acked). */
  outcomes(from: string, outs: CrewWalkyOutcome[]): Promise<string[]>;
  /** The last receipt of each message from another machine kept long enough to matter, and where it goes. */
  kept(): { to: string; outcome: CrewWalkyOutcome }[];
}
