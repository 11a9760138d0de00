CREATE TABLE "github_http_cache" (
	"url" text NOT NULL,
	"token_id" text NOT NULL,
	"etag" text NOT NULL,
	"body" jsonb NOT NULL,
	"link" text,
	"fetched_at" timestamp with time zone NOT NULL,
	"validated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "github_http_cache_url_token_id_pk" PRIMARY KEY("url","token_id")
);
--> statement-breakpoint
CREATE TABLE "github_rate_limits" (
	"token_id" text NOT NULL,
	"resource" text NOT NULL,
	"limit" integer NOT NULL,
	"remaining" integer NOT NULL,
	"used" integer,
	"reset_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "github_rate_limits_token_id_resource_pk" PRIMARY KEY("token_id","resource")
);
