import { toast } from 'sonner';

/** "<what> saved", naming the fields a save changed by their labels, then what follows from it. */
export function toastSaved(what: string, body: object, labels: Record<string, string>, after?: string) {
  const names = Object.keys(body).map((k) => labels[k] ?? k);
  toast.success(`${what} saved`, { description: `Changed: ${names.join(', ')}.${after ? ` ${after}` : ''}` });
}
