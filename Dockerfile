FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The local stand-in that package.json's overrides maps msgpackr-extract to (see docs/operating.md, "BullMQ and the lock file").
COPY infra/packaging ./infra/packaging
RUN npm ci
COPY . .
RUN npx tsc && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The console's templates and assets are read from the sources, beside the compiled code.
COPY --from=build /app/api/console/views ./api/console/views
COPY --from=build /app/api/console/assets ./api/console/assets
COPY tsconfig.json ./
COPY package.json ./
VOLUME /data
EXPOSE 3000
CMD ["node", "dist/service/main.js"]
