/**
 * The sections of an INI file as Python's configparser reads tox.ini and setup.cfg: `[section]`,
 * `key = value` (or `key: value`), a value continued on the indented lines under it, `#` and `;`
 * comment lines. Enough to find a test command; not a general INI parser (the `ini` package joins no
 * continuation lines). Pure.
 */
export type IniSections = Map<string, Map<string, string>>;

export function iniSections(text: string): IniSections {
  const sections: IniSections = new Map();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*[#;]/.test(raw)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = new Map();
      sections.set(header[1]!.trim(), section);
      key = null;
      continue;
    }
    if (!section || raw.trim() === '') continue;
    if (/^\s/.test(raw) && key !== null) {
      const before = section.get(key)!;
      section.set(key, before === '' ? raw.trim() : `${before}\n${raw.trim()}`);
      continue;
    }
    const pair = /^([^=:\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(raw);
    if (!pair) continue;
    key = pair[1]!.trim();
    section.set(key, pair[2]!.trim());
  }
  return sections;
}
