import { z } from 'zod';

/**
 * A push the bridge decided to send for a durable agent's question (delivery is the push
 * service's business). `question`: "Permission needed in" and the conversation's name, with
 * the agent's own title (≤ 60) and line (≤ 120). `flood`: the one push past the hourly cap.
 */
export const DurablePush = z.object({
  kind: z.enum(['question', 'flood']),
  agent: z.string(),
  machine: z.string(),
  conversationId: z.string().nullable(),
  questionId: z.string().nullable(),
  heading: z.string(),
  title: z.string().nullable(),
  line: z.string().nullable(),
  at: z.number(),
});
export type DurablePush = z.infer<typeof DurablePush>;

export const PUSH_CAPS = {
  perPaneMinute: 3,
  perAgentMinute: 10,
  perAgentHour: 30,
  /** After the flood push, this long without a push from that agent. */
  silenceMs: 60 * 60_000,
} as const;

export const floodHeading = (host: string) => `A durable agent on ${host} is raising many asks`;
export const questionHeading = (pane: string) => `Permission needed in ${pane}`;
