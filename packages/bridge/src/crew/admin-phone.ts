/** The Crew page's invite and remove: the CLI's own actions (admin.ts), the phone API's errors. */
import type { CrewInviteAnswer, CrewRemoveAnswer } from '@collie/protocol';
import { qrModules } from '../commands/qr';
import { ApiError } from '../http/api-error';
import type { CrewAdminRoutes } from '../http/routes/crew';
import { CrewAdminError, createInvite, removeFromCrew } from './admin';
import type { Crew } from './index';

const asApi = (err: unknown): unknown => {
  if (!(err instanceof CrewAdminError)) return err;
  const code = err.code === 'no_crew' || err.code === 'no_member' ? 'not_found' : err.code === 'not_lead' ? 'conflict' : 'internal';
  return new ApiError(code, `crew: ${err.message}`);
};

export function crewAdmin(stateDir: string, crew: () => Crew | null): CrewAdminRoutes {
  return {
    async invite(): Promise<CrewInviteAnswer> {
      try {
        const inv = await createInvite(stateDir, Date.now());
        return { ...inv, qr: qrModules(inv.token) };
      } catch (err) {
        throw asApi(err);
      }
    },
    async remove(member): Promise<CrewRemoveAnswer> {
      try {
        const r = await removeFromCrew(stateDir, member, Date.now());
        // At once, not when the file watcher fires: the member's panes and agents leave now.
        await crew()?.reload();
        return r;
      } catch (err) {
        throw asApi(err);
      }
    },
  };
}
