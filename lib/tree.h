/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Local directory trees (paths on the machine mlxcli runs on, not target
 * paths): copy a captured system, remove a temporary one.  Symlinks are
 * copied and removed as links, never followed.
 */
#ifndef MLX_TREE_H
#define MLX_TREE_H

/* Copy @src to @dst (which must not exist).  0 or -errno. */
int mlx_tree_copy(const char *src, const char *dst);
/* rm -rf without following links.  0 or -errno of the first failure. */
int mlx_tree_remove(const char *path);
/* The same for the entry @name of the directory @dfd (no '/' in @name):
 * every directory below is opened from its parent's fd with O_NOFOLLOW,
 * so nothing outside the tree is touched, whatever its links say; a
 * file system mounted inside is not entered (-EXDEV). */
int mlx_tree_remove_at(int dfd, const char *name);

#endif
