// graphql ships a CommonJS build (index.js) and an ESM build (index.mjs) without an `exports` map.
// Node loads index.js for everyone, but Vite (vitest) resolves a bare `graphql` in our own source to
// index.mjs while Pothos and yoga still get index.js: two copies whose schemas and errors fail each
// other's `instanceof` checks ("Cannot use GraphQLObjectType from another module or realm").
// Importing the file explicitly gives every runtime the one copy Pothos and yoga use.
export * from 'graphql/index.js';
