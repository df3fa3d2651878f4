/** cacheFolder: the one rule for sopworks' folders under the user's cache (models, the engine, the map's tags). */
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { cacheDir } from '../../../../src/capabilities/change/index.ts';
import { engineDir, modelsDir } from '../../../../src/capabilities/model/index.ts';
import { cacheFolder } from '../../../../src/ground/files/cache-folder.ts';

describe('cacheFolder', () => {
  it('takes the setting when set — resolved, a leading ~ read as the home folder, blank read as unset', () => {
    assert.equal(cacheFolder({ SOPWORKS_X: '  ~/models ' }, 'SOPWORKS_X', 'x'), path.join(os.homedir(), 'models'));
    assert.equal(cacheFolder({ SOPWORKS_X: '~' }, 'SOPWORKS_X'), os.homedir());
    assert.equal(cacheFolder({ SOPWORKS_X: 'rel/dir' }, 'SOPWORKS_X'), path.resolve('rel/dir'));
    assert.equal(cacheFolder({ SOPWORKS_X: '~user/dir' }, 'SOPWORKS_X'), path.resolve('~user/dir'), "another user's home is not guessed");
    assert.equal(cacheFolder({ SOPWORKS_X: ' ', XDG_CACHE_HOME: '/c' }, 'SOPWORKS_X', 'x'), '/c/sopworks/x');
  });

  it('falls back to $XDG_CACHE_HOME, then ~/.cache, under sopworks/', () => {
    assert.equal(cacheFolder({ XDG_CACHE_HOME: '/c' }, 'SOPWORKS_X', 'a', 'b'), '/c/sopworks/a/b');
    assert.equal(cacheFolder({ XDG_CACHE_HOME: '' }, 'SOPWORKS_X'), path.join(os.homedir(), '.cache', 'sopworks'));
  });

  it('is what the models, the engine and the map cache use, each with its own setting', () => {
    const env = { XDG_CACHE_HOME: '/c', SOPWORKS_CACHE_DIR: '~/tags' };
    assert.equal(modelsDir(env), '/c/sopworks/models');
    assert.match(engineDir(env), /^\/c\/sopworks\/engine\/[^/]+$/);
    assert.equal(cacheDir(env), path.join(os.homedir(), 'tags'));
    assert.equal(engineDir({ ...env, SOPWORKS_ENGINE_DIR: '/e' }), '/e');
  });
});
