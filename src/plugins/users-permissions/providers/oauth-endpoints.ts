// The OAuth endpoints grant 5 (v4's OAuth client) knows for the providers v4 ships (grant/config/oauth.json):
// used unless the provider's grant settings name their own `authorize_url` / `access_url`. `[subdomain]` is
// replaced by the settings' `subdomain`.
export interface OAuthEndpoints {
  oauth: 1 | 2;
  authorize_url: string;
  access_url: string;
  scope_delimiter?: string;
}

export const OAUTH_ENDPOINTS: Readonly<Record<string, OAuthEndpoints>> = {
  discord: { oauth: 2, authorize_url: 'https://discord.com/api/oauth2/authorize', access_url: 'https://discord.com/api/oauth2/token', scope_delimiter: ' ' },
  facebook: { oauth: 2, authorize_url: 'https://www.facebook.com/dialog/oauth', access_url: 'https://graph.facebook.com/oauth/access_token' },
  google: { oauth: 2, authorize_url: 'https://accounts.google.com/o/oauth2/v2/auth', access_url: 'https://oauth2.googleapis.com/token', scope_delimiter: ' ' },
  github: { oauth: 2, authorize_url: 'https://github.com/login/oauth/authorize', access_url: 'https://github.com/login/oauth/access_token' },
  microsoft: { oauth: 2, authorize_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize', access_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token', scope_delimiter: ' ' },
  twitter: { oauth: 1, authorize_url: 'https://api.twitter.com/oauth/authenticate', access_url: 'https://api.twitter.com/oauth/access_token' },
  instagram: { oauth: 2, authorize_url: 'https://api.instagram.com/oauth/authorize', access_url: 'https://api.instagram.com/oauth/access_token', scope_delimiter: ' ' },
  vk: { oauth: 2, authorize_url: 'https://oauth.vk.com/authorize', access_url: 'https://oauth.vk.com/access_token' },
  twitch: { oauth: 2, authorize_url: 'https://id.twitch.tv/oauth2/authorize', access_url: 'https://id.twitch.tv/oauth2/token', scope_delimiter: ' ' },
  linkedin: { oauth: 2, authorize_url: 'https://www.linkedin.com/oauth/v2/authorization', access_url: 'https://www.linkedin.com/oauth/v2/accessToken', scope_delimiter: ' ' },
  cognito: { oauth: 2, authorize_url: 'https://[subdomain]/oauth2/authorize', access_url: 'https://[subdomain]/oauth2/token', scope_delimiter: ' ' },
  reddit: { oauth: 2, authorize_url: 'https://ssl.reddit.com/api/v1/authorize', access_url: 'https://ssl.reddit.com/api/v1/access_token' },
  auth0: { oauth: 2, authorize_url: 'https://[subdomain].auth0.com/authorize', access_url: 'https://[subdomain].auth0.com/oauth/token', scope_delimiter: ' ' },
  cas: { oauth: 2, authorize_url: 'https://[subdomain]/oidc/authorize', access_url: 'https://[subdomain]/oidc/token' },
  patreon: { oauth: 2, authorize_url: 'https://www.patreon.com/oauth2/authorize', access_url: 'https://www.patreon.com/api/oauth2/token', scope_delimiter: ' ' },
  keycloak: { oauth: 2, authorize_url: 'https://[subdomain]/protocol/openid-connect/auth', access_url: 'https://[subdomain]/protocol/openid-connect/token', scope_delimiter: ' ' },
};
