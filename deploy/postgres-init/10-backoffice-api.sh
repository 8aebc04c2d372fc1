#!/bin/sh
# Run once by the postgres image on an empty data volume (docker-entrypoint-initdb.d), as the superuser.
# Least privilege (docs/operations.md, "Run in a container"): the API connects as backoffice_api, a role that is no
# superuser, creates no database and no role, and owns only its own database `backoffice` (its tables, its
# migrations' schema). pg_trgm is created here by the superuser, so the migration's CREATE EXTENSION IF NOT EXISTS
# finds it. The role's password is the Docker secret api_db_password, the one the API reads (PGPASSWORD_FILE);
# psql's :'password' quotes it, whatever it holds.
set -eu
password_file=${API_DB_PASSWORD_FILE:-/run/secrets/api_db_password}
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -v password="$(cat "$password_file")" <<'SQL'
CREATE ROLE backoffice_api LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'password';
CREATE DATABASE backoffice OWNER backoffice_api;
REVOKE ALL ON DATABASE backoffice FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE backoffice TO backoffice_api;
SQL
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname backoffice <<'SQL'
CREATE EXTENSION IF NOT EXISTS pg_trgm;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO backoffice_api;
SQL
