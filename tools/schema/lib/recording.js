'use strict';
// The trace categories a DevTools Performance-panel recording asks Chrome for,
// read from the DevTools front end's own sources.
//
// TimelineController#categoriesForRecording builds the list: '-*' (or '*' when
// "show all events" is on), then DefaultCategories, then one OptionalCategories
// group per recording option. Each option's setting is named by the title the
// DevTools Settings pane shows for it (its UIStrings text), as the manual
// names them ("Enable CSS selector stats (slow)", "Show all events"). Whether a group is in a default recording depends
// on the option, which TimelinePanel fills from a setting, whose default value
// timeline-meta.ts registers. This follows that chain through the syntax and
// throws on any shape it does not know, so a front-end change that moves the
// logic fails the generator instead of silently changing the answer.

const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const FILES = {
  controller: 'front_end/panels/timeline/TimelineController.ts',
  panel: 'front_end/panels/timeline/TimelinePanel.ts',
  meta: 'front_end/panels/timeline/timeline-meta.ts',
  events: 'front_end/models/trace/types/TraceEvents.ts',
};

function parse(root, rel) {
  const file = path.join(root, rel);
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function findAll(node, test, out = []) {
  if (test(node)) out.push(node);
  ts.forEachChild(node, (c) => { findAll(c, test, out); }); // a truthy return would stop the walk
  return out;
}

function findOne(node, test, what) {
  const found = findAll(node, test);
  if (found.length !== 1) throw new Error(`expected one ${what}, found ${found.length}`);
  return found[0];
}

const strip = (e) => (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) ? strip(e.expression) : e);
const lastName = (e) => (ts.isPropertyAccessExpression(e) ? e.name.text : e.getText());
const fail = (node, why) => { throw new Error(`${why}: ${node.getText()}`); };

function stringArray(node) {
  const arr = strip(node);
  if (!ts.isArrayLiteralExpression(arr)) fail(node, 'not an array literal');
  return arr.elements.map((e) => (ts.isStringLiteralLike(e) ? e.text : fail(e, 'not a string')));
}

function exportedConst(source, name) {
  const decl = findOne(source, (n) => ts.isVariableDeclaration(n) && n.name.getText() === name, name);
  return decl.initializer;
}

// The UI strings a file registers: `const UIStrings = {key: 'text', ...}`.
function uiStrings(source) {
  const strings = new Map();
  const decl = findAll(source, (n) => ts.isVariableDeclaration(n) && n.name.getText() === 'UIStrings');
  if (decl.length !== 1) return strings;
  const obj = strip(decl[0].initializer);
  if (!ts.isObjectLiteralExpression(obj)) return strings;
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && ts.isStringLiteralLike(p.initializer)) {
      strings.set(p.name.getText(), p.initializer.text);
    }
  }
  return strings;
}

// settingName -> defaultValue, and settingName -> the title the Settings
// pane shows (`title: i18nLazyString(UIStrings.key)`), from every
// registerSettingExtension({...}).
function settingDefaults(meta) {
  const defaults = new Map();
  const titles = new Map();
  const strings = uiStrings(meta);
  for (const obj of findAll(meta, ts.isObjectLiteralExpression)) {
    const prop = (k) => obj.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === k);
    const name = prop('settingName');
    const value = prop('defaultValue');
    if (!name || !value) continue;
    const v = value.initializer;
    const parsed = v.kind === ts.SyntaxKind.TrueKeyword ? true
      : v.kind === ts.SyntaxKind.FalseKeyword ? false
        : ts.isStringLiteralLike(v) ? v.text : undefined;
    defaults.set(name.initializer.text, parsed);
    const title = prop('title') && strip(prop('title').initializer);
    if (title && ts.isCallExpression(title) && title.arguments.length === 1 &&
        ts.isPropertyAccessExpression(title.arguments[0]) &&
        strings.has(title.arguments[0].name.text)) {
      titles.set(name.initializer.text, strings.get(title.arguments[0].name.text));
    }
  }
  return { defaults, titles };
}

// The title of SETTING, which a recording option depends on: a change that
// moves it must fail the generator, not drop the setting's name.
function titleOf(ctx, setting) {
  if (!ctx.titles.has(setting)) throw new Error(`setting ${setting} has no title`);
  return ctx.titles.get(setting);
}

// `...moduleSetting('name')`, possibly through a `this.field` assigned one.
function settingName(expr, fields) {
  const e = strip(expr);
  if (ts.isCallExpression(e) && lastName(e.expression) === 'moduleSetting' &&
      ts.isStringLiteralLike(e.arguments[0])) {
    return e.arguments[0].text;
  }
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword &&
      fields.has(e.name.text)) {
    return fields.get(e.name.text);
  }
  return fail(expr, 'not a setting');
}

// Evaluates a recording condition under default settings; returns
// { value, setting } naming the setting it was decided by.
function evaluate(expr, ctx) {
  const e = strip(expr);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
    const inner = evaluate(e.operand, ctx);
    return { value: !inner.value, setting: inner.setting };
  }
  if (ts.isPropertyAccessExpression(e) && lastName(e.expression) === 'options') {
    if (!ctx.options.has(e.name.text)) fail(e, 'recording option not set by the panel');
    return evaluate(ctx.options.get(e.name.text), ctx);
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) &&
      e.expression.name.text === 'get' && e.arguments.length === 0) {
    const setting = settingName(e.expression.expression, ctx.fields);
    const value = ctx.defaults.get(setting);
    if (typeof value !== 'boolean') fail(e, `setting ${setting} has no boolean default`);
    return { value, setting };
  }
  return fail(expr, 'unknown recording condition');
}

function panelContext(panel, { defaults, titles }) {
  const fields = new Map();
  for (const a of findAll(panel, (n) => ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) && n.left.expression.kind === ts.SyntaxKind.ThisKeyword)) {
    const call = strip(a.right);
    if (ts.isCallExpression(call) && lastName(call.expression) === 'moduleSetting') {
      fields.set(a.left.name.text, settingName(call, fields));
    }
  }
  const start = findOne(panel, (n) => ts.isCallExpression(n) &&
    lastName(n.expression) === 'startRecording' && n.arguments.length === 1, 'startRecording call');
  const options = new Map();
  for (const p of strip(start.arguments[0]).properties) {
    if (ts.isPropertyAssignment(p)) options.set(p.name.getText(), p.initializer);
  }
  return { fields, options, defaults, titles };
}

// Returns { categories: sorted default recording categories,
//           optional: { group: { categories, default_on, setting, title } },
//           exclusive: true when the list starts with '-*',
//           all: { setting, title, default_on }: the setting that makes it
//                '*' (every category that is not disabled-by-default) }.
function recordingCategories(root) {
  const src = Object.fromEntries(Object.entries(FILES).map(([k, rel]) => [k, parse(root, rel)]));
  const defaults = settingDefaults(src.meta);
  const ctx = panelContext(src.panel, defaults);
  const defaultCategories = stringArray(exportedConst(src.events, 'DefaultCategories'));
  const groups = strip(exportedConst(src.events, 'OptionalCategories'));
  const groupCategories = new Map(groups.properties.map((p) => [p.name.getText(), stringArray(p.initializer)]));

  const method = findOne(src.controller, (n) => ts.isMethodDeclaration(n) &&
    n.name.getText() === '#categoriesForRecording', '#categoriesForRecording');
  const list = findOne(method, (n) => ts.isVariableDeclaration(n) &&
    n.initializer && ts.isArrayLiteralExpression(n.initializer), 'category array');

  const categories = new Set();
  let exclusive = null;
  let all = null;
  for (const el of list.initializer.elements) {
    if (ts.isSpreadElement(el) && lastName(el.expression) === 'DefaultCategories') {
      defaultCategories.forEach((c) => categories.add(c));
    } else if (ts.isConditionalExpression(el)) {
      const { value, setting } = evaluate(el.condition, ctx);
      if (el.whenTrue.text !== '*' || el.whenFalse.text !== '-*') fail(el, 'not "*" : "-*"');
      exclusive = !value;
      all = { setting, title: titleOf(ctx, setting), default_on: value };
    } else {
      fail(el, 'unknown category list element');
    }
  }
  if (exclusive === null) fail(list, 'no "*"/"-*" element');

  const optional = {};
  for (const stmt of findAll(method, ts.isIfStatement)) {
    const push = findOne(stmt.thenStatement, (n) => ts.isSpreadElement(n), 'pushed group');
    const group = lastName(push.expression);
    if (!groupCategories.has(group)) fail(push, 'unknown category group');
    const { value, setting } = evaluate(stmt.expression, ctx);
    optional[group] = {
      categories: [...groupCategories.get(group)].sort(), default_on: value, setting,
      title: titleOf(ctx, setting),
    };
    if (value) groupCategories.get(group).forEach((c) => categories.add(c));
  }
  // Chrome reads "navigation,rail" as two categories.
  const split = [...categories].flatMap((c) => c.split(','));
  return { categories: [...new Set(split)].sort(), optional, exclusive, all };
}

module.exports = { recordingCategories, FILES };
