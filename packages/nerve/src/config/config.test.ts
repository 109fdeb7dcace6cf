import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

const bad = (text: string) => {
  try {
    parseConfig(text, 'config.yaml');
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
};

describe('config.yaml', () => {
  it('fills every agent.subagents key with the page defaults', () => {
    expect(parseConfig('', 'config.yaml').agent.subagents).toEqual({
      per_task_stop_affordance: true,
      progress_summaries: true,
      forward_subagent_text: true,
      quiet_after_minutes: 10,
      lost_grace_seconds: 30,
      stop_confirm_seconds: 10,
      transcript_item_max_bytes: 16_384,
    });
  });

  it('answers a bad file with the file, the key and what is wrong', () => {
    expect(bad('agent:\n  subagents:\n    lost_grace_seconds: soon\n').message).toBe('config.yaml: agent.subagents.lost_grace_seconds: Invalid input: expected number, received string');
    expect(bad('agent:\n  subagents:\n    per_task_stop: true\n').message).toBe('config.yaml: agent.subagents: unknown key per_task_stop');
    expect(bad('listen:\n  host: 0.0.0.0\n').key).toBe('listen.host');
    expect(bad('a: [').message).toMatch(/^config\.yaml: \(top level\): not valid YAML/);
    expect(bad('- 1\n- 2').message).toBe('config.yaml: (top level): expected a mapping of keys');
  });

  it('never throws anything but a ConfigError (fuzz)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
        try {
          parseConfig(text, 'f.yaml');
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
