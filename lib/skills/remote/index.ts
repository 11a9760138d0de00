/** Remote skill sources: each fetcher only brings bytes into a private staging location. */
export { checkUrlTarget, checkUrlSyntax, blockedRange, hostMatches, type SsrfPolicy, type VettedTarget, type Resolver } from './ssrf';
export { fetchToFile, type FetchPolicy, type FetchedFile } from './url';
export { fetchGitSkill, type GitFetchInput, type GitFetchPolicy, type GitFetchResult } from './git';
export { parseGitRemote, validateRef, validateSubdir } from './git-input';
export { createClawhubClient, isBlockedVerdict, type ClawhubClient, type ClawhubClientOptions } from './clawhub';
export * from './clawhub-types';
export { parseSkillRef, formatSkillRef, validateSlug, validateOwner, validateVersion, validateHash, type SkillRef } from './clawhub-ref';
export { retryAfterSeconds, parseAmbiguousOwners } from './clawhub-http';
