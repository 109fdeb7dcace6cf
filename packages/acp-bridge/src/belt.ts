import { methods } from '@agentclientprotocol/sdk';
import { LIMITS } from '@collie/protocol';
import { Refusal } from '@collie/durable-sdk';
import { within, type Link } from './link';
import { modelChoice } from './map';
import { refusal } from './agent-words';
import type { Thread } from './thread';

/**
 * The session's modes and models as belt buttons (at most 4 in all; with a model choice the
 * modes take at most 2); the current mode and model are checked and do nothing.
 */
export function drawBelt(t: Thread, need: () => Link, requestMs: number, redraw: () => void): void {
  t.beltChanged = redraw;
  const modes = t.modes && t.modes.availableModes.length >= 2 ? t.modes : null;
  const model = modelChoice(t.config);
  const forModes = model ? LIMITS.buttons - 2 : LIMITS.buttons;
  // One button per choice, the current one checked and dimmed; a tap switches, then redraws the belt.
  const choice = (id: string, name: string, current: boolean, act: (link: Link, sessionId: string) => Promise<void>) => ({
    id,
    label: name.slice(0, LIMITS.buttonLabel),
    icon: current ? ('check' as const) : null,
    disabled: current,
    onTap: async () => {
      const link = need();
      if (!t.sessionId) throw new Refusal('No agent session yet: send a line first.');
      await act(link, t.sessionId).catch(refusal(id.startsWith('mode') ? 'session/set_mode' : 'session/set_config_option'));
      redraw();
    },
  });
  const modeButtons = (modes?.availableModes ?? []).slice(0, forModes).map((m, i) =>
    choice(`mode-${i}`, m.name, m.id === modes?.currentModeId, async (link, sessionId) => {
      await within(link.agent.request(methods.agent.session.setMode, { sessionId, modeId: m.id }), requestMs, 'session/set_mode');
      if (modes) t.modes = { ...modes, currentModeId: m.id };
    }),
  );
  const modelButtons = (model?.options ?? []).slice(0, LIMITS.buttons - modeButtons.length).map((m, i) =>
    choice(`model-${i}`, m.name, m.value === model?.current, async (link, sessionId) => {
      if (!model) return;
      const r = await within(
        link.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: model.configId, value: m.value }),
        requestMs,
        'session/set_config_option',
      );
      t.config = r.configOptions;
    }),
  );
  t.c.buttons([...modeButtons, ...modelButtons]);
}
