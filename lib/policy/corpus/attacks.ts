// The attack corpus: generated spellings of each bypass class the policy must stop (decided deny
// or approval under balanced and locked_down, never allow). `stdin` marks an exec sending stdin.
import { ATTACKS_HOST } from './attacks-host';
import type { AttackCase } from './kit';

const cross = <A, B>(as: readonly A[], bs: readonly B[]) => as.flatMap((a) => bs.map((b) => [a, b] as const));
const of = (cls: string, commands: string[], stdin?: boolean): AttackCase[] => commands.map((command) => ({ cls, command, ...(stdin ? { stdin } : {}) }));

const INTERPRETERS = ['python3', 'python', 'python3.12', 'perl', 'node', 'ruby', 'php', 'lua', 'sh', 'bash', 'dash', '/usr/bin/python3', '/bin/sh'];
const STDIN_PATHS = ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '/dev//stdin', '/dev/./stdin', '/proc/thread-self/fd/0', '/proc/1/fd/0'];
const WRAP = ['', 'env ', 'timeout 5 ', 'nice ', 'command ', 'xargs -0 '];

export const ATTACKS: AttackCase[] = [
  ...of(
    'stdin interpreter',
    cross(INTERPRETERS, WRAP).map(([i, w]) => `${w}${i}`),
    true,
  ),
  ...of('stdin interpreter', [
    ...cross(INTERPRETERS, STDIN_PATHS).map(([i, p]) => `${i} ${p}`),
    ...['python3', 'perl', 'node', 'ruby', 'php', 'lua'].map((i) => `${i} -`),
    ...STDIN_PATHS.flatMap((p) => [`awk -f ${p} data.txt`, `gawk -f${p}`, `sed -f ${p} notes.txt`, `source ${p}`, `. ${p}`]),
    'awk -f - data.txt',
    'sed --file=/dev/stdin x',
    'bash -s',
    'sh -s -- a b',
    'cat x.py | python3',
    'cat notes | sh',
    'printf "%s" x | perl',
    'python3 <<EOF\nprint(1)\nEOF',
  ]),
  ...of('interpreter tricks', [
    ...['awk', 'gawk', 'mawk', 'nawk', 'busybox awk'].flatMap((a) => [
      `${a} 'BEGIN{system("id")}'`,
      `${a} -v x=1 'BEGIN{system("id")}'`,
      `${a} -F: -v OFS=, '{system($1)}' f`,
      `${a} 'BEGIN{"id" | getline x; print x}'`,
      `${a} 'BEGIN{print "id" | "sh"}'`,
      `${a} 'BEGIN{printf "id" |& "sh"}'`,
    ]),
    ...['e', '1e id', 's/x/id/e', 's|a|b|ge', '$e date', 'e id'].flatMap((s) => [`sed '${s}' f`, `sed -n -e '${s}' f`, `sed -i '${s}' f`]),
    ...[
      '--checkpoint-action=exec=id',
      '--checkpoint-act=exec=id',
      '--to-command=sh',
      '--to-com=sh',
      '--use-compress-program=sh',
      '--info-script=x.sh',
      '--new-volume-script=x',
      '--rsh-command=sh',
    ].map((o) => `tar -cf a.tar --checkpoint=1 ${o} src`),
    'tar -I sh -cf a.tar src',
    'tar cIf sh a.tar src',
    'find . -exec sh -c id \\;',
    'find . -execdir id \\;',
    'find . -ok id \\;',
    'find / -name x -exec cat {} +',
    ...['/bin/sh', '/bin/bash', '/usr/bin/bash', '/usr/bin/python3', '/usr/bin/perl', '/bin/busybox', '/usr/local/bin/node', '/bin/dash'].flatMap((b) => [
      `cp ${b} ./x`,
      `cp -p ${b} tools/ls`,
      `ln -s ${b} ./helper`,
      `ln ${b} ./h`,
      `install ${b} ./x`,
      `rsync ${b} ./x`,
      `cat ${b} > ./x`,
      `dd if=${b} of=./x`,
    ]),
    ...['--rcfile x.sh', '--init-file x.sh', '--rcfile=x.sh'].flatMap((o) => [`bash ${o} -c ls`, `bash ${o} -i`, `bash ${o} script.sh`]),
    ...['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS4'].flatMap((v) => [`${v}=x.sh bash -c ls`, `export ${v}=x.sh`, `env ${v}=./x.sh sh -c ls`]),
  ]),
  ...of('mapfile callback', [
    ...['mapfile', 'readarray', 'builtin mapfile', 'command readarray'].flatMap((m) => [
      `${m} -C id x`,
      `${m} -t -C id -c 1 x`,
      `${m} -C 'sh -c id' -c1 arr`,
      `${m} -tC id x`,
    ]),
  ]),
  ...ATTACKS_HOST,
];
