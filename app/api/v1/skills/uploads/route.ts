import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getSkillsSettings } from '@/lib/settings/store';
import { managedStore, saveUpload } from '@/lib/skills/service';

const num = (v: string | null) => (v !== null && /^\d{1,15}$/.test(v) ? Number(v) : undefined);

export const POST = handle(api.uploadSkill, async ({ services, actor, req }) => {
  const settings = await getSkillsSettings(services.database.db);
  const filename = req.headers.get('x-filename');
  return saveUpload(managedStore(services.config.dataDir).uploadsDir, req.body, {
    maxBytes: settings.uploadMaxMb * 1024 * 1024,
    declaredSize: num(req.headers.get('content-length')),
    declaredSha256: req.headers.get('x-content-sha256') ?? undefined,
    filename: filename ? decodeURIComponent(filename).replace(/[^\w.\- ]/g, '_').slice(0, 200) : undefined,
    actor: actor.label,
    signal: req.signal,
  });
});
