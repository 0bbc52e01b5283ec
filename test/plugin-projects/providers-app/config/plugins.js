// The fixture app's plugins, plus the upload provider aws-s3 and the email provider nodemailer configured as
// v4 projects configure them. The S3 endpoint and bucket and the SMTP port come from the environment, so
// tests (and real Strapi, for comparison) point them at the S3 and SMTP servers they start on loopback.
module.exports = ({ env }) => ({
  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 7,
      amountLimit: 100,
      maxLimit: 100,
      apolloServer: {
        tracing: false,
      },
    },
  },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'peer-users-permissions-jwt-secret-not-for-production'),
    },
  },
  upload: {
    config: {
      provider: 'aws-s3',
      providerOptions: {
        baseUrl: env('S3_BASE_URL'),
        rootPath: env('S3_ROOT_PATH'),
        s3Options: {
          credentials: {
            accessKeyId: env('S3_ACCESS_KEY_ID', 'S3RVER'),
            secretAccessKey: env('S3_SECRET_ACCESS_KEY', 'S3RVER'),
          },
          region: env('S3_REGION', 'us-east-1'),
          endpoint: env('S3_ENDPOINT', 'http://127.0.0.1:4568'),
          forcePathStyle: true,
          params: {
            ACL: env('S3_ACL', 'public-read'),
            signedUrlExpires: env.int('S3_SIGNED_URL_EXPIRES', 15 * 60),
            Bucket: env('S3_BUCKET', 'tessera-uploads'),
          },
        },
      },
      // v4 hands each provider method its entry as the method's options: aws-s3 spreads them into the S3 call
      actionOptions: {
        upload: { CacheControl: 'public, max-age=31536000' },
        uploadStream: { CacheControl: 'public, max-age=31536000' },
        delete: {},
      },
      sizeLimit: env.int('UPLOAD_SIZE_LIMIT', 10 * 1024 * 1024),
    },
  },
  email: {
    config: {
      provider: 'nodemailer',
      providerOptions: {
        host: env('SMTP_HOST', '127.0.0.1'),
        port: env.int('SMTP_PORT', 2525),
        secure: false,
        ignoreTLS: true,
        auth: {
          user: env('SMTP_USERNAME', 'mailer'),
          pass: env('SMTP_PASSWORD', 'mailer-password'),
        },
      },
      settings: {
        defaultFrom: 'Providers App <no-reply@providers.test>',
        defaultReplyTo: 'support@providers.test',
      },
    },
  },
});
