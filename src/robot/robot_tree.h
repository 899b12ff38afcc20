/* robot_tree.h -- the tree of a URDF model, checked and ordered
 * (robot_tree.c), for robot_build.c. */
#ifndef HS_ROBOT_TREE_H
#define HS_ROBOT_TREE_H

#include "halfspace.h"
#include "src/robot/urdf.h"

/* Indices into the model's arrays. */
typedef struct robot_tree {
    int *parent_joint;  /* per link: the joint whose child it is, -1 root */
    int *jparent, *jchild; /* per joint: its links */
    int *order;         /* links in depth-first order, root first */
    int *leader;        /* per joint: the joint it mimics in the end, -1 */
    double *mult, *off; /* per joint: q = mult q_leader + off */
    int *tmp;           /* scratch */
} robot_tree;

/* Check the model and order its links; errors "FILE:LINE: what" (t is
 * freed on error). */
hs_code robot_tree_make(const urdf_model *m, robot_tree *t, hs_error *err);
void robot_tree_free(robot_tree *t);

#endif
