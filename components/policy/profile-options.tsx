/** What the option groups need of a profile. */
interface ProfileOption {
  name: string;
  builtin: boolean;
}

/**
 * The options of a profile picker: the presets (the default one marked), then any custom profiles.
 * `label` names a preset (custom profiles show their own name as written).
 */
export function ProfileOptionGroups({
  items,
  defaultProfile,
  label = (name) => name,
}: {
  items: readonly ProfileOption[];
  defaultProfile: string | undefined;
  label?: (name: string) => string;
}) {
  const custom = items.filter((p) => !p.builtin);
  return (
    <>
      <optgroup label="Presets">
        {items
          .filter((p) => p.builtin)
          .map((p) => (
            <option key={p.name} value={p.name}>
              {label(p.name)}
              {p.name === defaultProfile ? ' (default)' : ''}
            </option>
          ))}
      </optgroup>
      {custom.length ? (
        <optgroup label="Custom">
          {custom.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </optgroup>
      ) : null}
    </>
  );
}
