import { describe, expect, it } from 'vitest';
import { maskCommand } from './mask-command';

describe('maskCommand', () => {
  it.each([
    ['TOKEN=abc123 ./deploy.sh', 'TOKEN=*** ./deploy.sh'],
    ['export GITHUB_TOKEN=ghp_abcdef && gh repo list', 'export GITHUB_TOKEN=*** && gh repo list'],
    ["OPENAI_API_KEY='sk-live-1 2' python3 x.py", "OPENAI_API_KEY='***' python3 x.py"],
    ['env AWS_SECRET_ACCESS_KEY="a\\"b" aws s3 ls', 'env AWS_SECRET_ACCESS_KEY="***" aws s3 ls'],
    ['DB_PASSWORD=hunter2;psql', 'DB_PASSWORD=***;psql'],
    ['STRIPE_KEY=sk_1 node a.js', 'STRIPE_KEY=*** node a.js'],
    ['mysql --password hunter2 -h db', 'mysql --password *** -h db'],
    ['mysql --password=hunter2 -h db', 'mysql --password=*** -h db'],
    ['tool --api-key "k 1" run', 'tool --api-key "***" run'],
    ['gh auth login --with-token tok', 'gh auth login --with-token ***'],
    ["curl -H 'Authorization: Bearer eyJhbGciOi.x.y' https://api.example.com", "curl -H 'Authorization: Bearer ***' https://api.example.com"],
    ['curl -H "X-Api-Key: abc" https://x.test', 'curl -H "X-Api-Key: ***" https://x.test'],
    ['git clone https://alice:s3cr3t@github.com/o/r.git', 'git clone https://alice:***@github.com/o/r.git'],
    ['psql postgres://app:pw@db:5432/app', 'psql postgres://app:***@db:5432/app'],
    ['curl -u bob:pa55 https://x.test', 'curl -u bob:*** https://x.test'],
  ])('%s', (raw, masked) => {
    expect(maskCommand(raw)).toBe(masked);
  });

  it.each([
    ['ls -la /workspace'],
    ['git commit -m "remove rm -rf / from script"'],
    ['grep -r password src/'],
    ['echo $TOKEN'],
    ['FOO=bar make'],
    ['curl https://example.com/a?b=c'],
    ['python3 script.py --verbose --out file.txt'],
  ])('leaves %s alone', (raw) => {
    expect(maskCommand(raw)).toBe(raw);
  });
});
